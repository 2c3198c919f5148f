import Koa from "koa";
import Router from "@koa/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, loadOpenApiDocument } from "../openapi/document.js";
import { serveApp } from "../test-support/serve-app.js";
import { RouteTable } from "./route-table.js";

interface Route {
  method: string;
  path: string;
  name: string;
  /** Added by `extraRoutes`, straight into the general router. */
  extra?: true;
}

/** Every operation of the OpenAPI document, then routes of the kind `extraRoutes` adds. */
const routes: Route[] = [
  ...listOperations(loadOpenApiDocument()).map((spec) => ({ method: spec.method, path: spec.routerPath, name: spec.operationId })),
  { method: "GET", path: "/openapi.json", name: "document", extra: true },
  { method: "GET", path: "/sandbox/checkouts/:checkoutId", name: "hostedCheckout", extra: true },
  { method: "POST", path: "/sandbox/checkouts/:checkoutId/pay", name: "hostedCheckoutPay", extra: true },
];

/** Answers which route took the request, or 404 "none". */
function answerWithRouteName(ctx: Koa.Context): void {
  ctx.body = { route: (ctx as unknown as { _matchedRouteName?: string })._matchedRouteName, params: ctx.params };
}

async function serve(app: Koa) {
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { route: "none" };
  });
  const served = await serveApp(app);
  return {
    ask: async (method: string, path: string) => {
      const response = await fetch(served.url + path, { method });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    close: served.close,
  };
}

let single: Awaited<ReturnType<typeof serve>>;
let table: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  const router = new Router();
  const routeTable = new RouteTable();
  for (const route of routes) {
    router.register(route.path, [route.method], [answerWithRouteName], { name: route.name });
    (route.extra ? routeTable.general : routeTable).register(route.path, [route.method], [answerWithRouteName], { name: route.name });
  }
  single = await serve(new Koa().use(router.routes() as unknown as Koa.Middleware));
  table = await serve(new Koa().use(routeTable.routes()));
});

afterAll(async () => {
  await Promise.all([single?.close(), table?.close()]);
});

/** How many requests are in flight at once. */
const batchSize = 16;

/** A request path for a route: each parameter filled in. */
const samplePath = (path: string) => path.replace(/:(\w+)/g, (_whole, name: string) => `${name}_x1`);

describe("RouteTable", () => {
  it("sends every request to the route one router holding all the routes would pick", async () => {
    const requests = routes.flatMap((route) => {
      const path = samplePath(route.path);
      return [
        { method: route.method, path },
        { method: route.method, path: `${path}/` },
        { method: route.method, path: path.toUpperCase() },
        { method: route.method, path: `${path}?limit=1` },
        { method: route.method === "GET" ? "POST" : "GET", path },
        { method: route.method, path: `${path}/extra` },
        { method: route.method, path: `${path}x` },
      ];
    });
    // In batches: several hundred requests one after another outlast the default test timeout on a busy machine.
    for (let start = 0; start < requests.length; start += batchSize) {
      const batch = requests.slice(start, start + batchSize);
      const answers = await Promise.all(batch.map(({ method, path }) => Promise.all([single.ask(method, path), table.ask(method, path)])));
      batch.forEach(({ method, path }, index) => {
        const [expected, actual] = answers[index];
        expect({ method, path, ...actual }).toEqual({ method, path, ...expected });
      });
    }
    const matched = await Promise.all(routes.map((route) => table.ask(route.method, samplePath(route.path))));
    expect(matched.map((answer) => (answer.body as { route: string }).route)).toEqual(routes.map((route) => route.name));
  }, 60_000);

  it("leaves a path no route has to the next middleware", async () => {
    for (const path of ["/", "/api/v1/payments", "/api/v1/payments/nothing-here", "/api/v2/payments/checkouts"]) {
      expect(await table.ask("GET", path)).toEqual({ status: 404, body: { route: "none" } });
    }
  });
});
