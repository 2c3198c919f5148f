import Router from "@koa/router";
import type { Middleware } from "koa";

/** A router's middleware as it behaves: it settles when the request has been handled. */
type Dispatch = (...args: Parameters<Middleware>) => Promise<void>;

/** How many leading path segments name an area: `/api/v1/payments/checkouts`. */
const areaDepth = 4;

/**
 * The gateway's routes in several @koa/router routers: one per area (the first four path
 * segments, when all are literal, such as `/api/v1/payments/checkouts`), and one for every other
 * route (parameters within the first four segments, shorter paths, the pages and documents).
 *
 * A router tests every one of its routes against every request, so one router holding the whole
 * API spent more on finding the route than on most of what the route does; an area holds a
 * handful. A request goes to its area's router, and to the general router when that has no route
 * for it, so it reaches the same route as in one router, paths being compared as @koa/router
 * compares them (case-insensitively, a trailing slash allowed). The one difference would be a
 * literal route and a general route that both match a path: the literal one wins. The route-table
 * test checks every route of the OpenAPI document against one router.
 *
 * A route's parameters are matched on the raw path, so `%2F` stays inside its segment. The
 * router's own decoding of them (ctx.params) keeps a segment it cannot decode as it came, so the
 * request validator decodes the raw captures (ctx.captures) itself, strictly
 * (openapi/strict-decoding.ts).
 */
export class RouteTable {
  /** Routes outside any area; `extraRoutes` register here. */
  readonly general = new Router();
  private readonly areas = new Map<string, Router>();

  /** Router.register, into the route's area when it has one. */
  register(path: string, methods: string[], middleware: Middleware[], options: { name: string }): void {
    const key = areaOfRoute(path);
    const router = key === undefined ? this.general : this.area(key);
    router.register(path, methods, middleware, options);
  }

  private area(key: string): Router {
    let router = this.areas.get(key);
    if (!router) this.areas.set(key, (router = new Router()));
    return router;
  }

  /** The middleware that dispatches a request to its area's router, then to the general one. */
  routes(): Middleware {
    const general = this.general.routes() as unknown as Dispatch;
    const areas = new Map([...this.areas].map(([key, router]) => [key, router.routes() as unknown as Dispatch]));
    return function routeTable(ctx, next) {
      const area = areas.get(areaOfPath(ctx.path));
      return area ? area(ctx, () => general(ctx, next)) : general(ctx, next);
    };
  }
}

/** A route's area: its first four segments, lower-cased, when the path has them all and none is a parameter. */
function areaOfRoute(path: string): string | undefined {
  const segments = path.split("/", areaDepth + 2);
  if (segments.length <= areaDepth) return undefined;
  const leading = segments.slice(0, areaDepth + 1);
  if (leading.some((segment) => /[:*()?+{}]/.test(segment))) return undefined;
  return leading.join("/").toLowerCase();
}

/** The area a request path would be in. */
function areaOfPath(path: string): string {
  return path.split("/", areaDepth + 1).join("/").toLowerCase();
}
