import type { Middleware } from "koa";
import { asComponentWork, extractTraceContext, inSpan, SpanKind, SpanStatusCode, tracerOf } from "@bayad/kit";

/**
 * One server span per request, outermost: a child of the caller's W3C `traceparent` (and
 * `tracestate`) when the request carries one, the root of a new trace otherwise. It is named
 * after the operation the request was routed to (its method and path when none), and carries the
 * method, the route, the status and the correlation id; the services' spans are its children.
 * Installed only when traces are on (see kit's tracing).
 */
export function tracing(): Middleware {
  const tracer = tracerOf("gateway");
  return function tracing(ctx, next) {
    return inSpan(
      tracer,
      `${ctx.method} ${ctx.path}`,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": ctx.method, "url.path": ctx.path } },
      async (span) => {
        try {
          await next();
        } finally {
          // @koa/router's record of the route it matched (the operation id is the route's name).
          const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
          const operationId = (ctx as { _matchedRouteName?: unknown })._matchedRouteName;
          if (typeof route === "string") {
            span.setAttribute("http.route", route);
            span.updateName(typeof operationId === "string" ? operationId : `${ctx.method} ${route}`);
          } else span.updateName(ctx.method);
          if (typeof operationId === "string") span.setAttribute("bayad.operation_id", operationId);
          span.setAttribute("http.response.status_code", ctx.status);
          if (typeof ctx.state.correlationId === "string") span.setAttribute("bayad.correlation_id", ctx.state.correlationId);
          if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        }
      },
      { parent: asComponentWork(extractTraceContext(ctx.headers), "gateway") },
    );
  };
}
