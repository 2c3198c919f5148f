import type Koa from "koa";
import { Histogram, latencyBuckets, metricOnce, type Registry } from "@bayad/kit";

/**
 * Times every request by operation (the OpenAPI operationId, or the route of the sandbox pages
 * and documents) and status code; the histogram's `_count` series is the request count, so no
 * separate counter is kept. Unmatched paths share one label, so random URLs cannot grow the
 * number of series.
 */
export function httpMetrics(registry: Registry): Koa.Middleware {
  const labelNames = ["operation", "method", "status"] as const;
  const duration = metricOnce(registry, "bayad_http_request_duration_seconds", () =>
    new Histogram({
      name: "bayad_http_request_duration_seconds",
      help: "Time to answer an HTTP request at the gateway.",
      labelNames,
      buckets: latencyBuckets,
      registers: [registry],
    }),
  );
  return async function measure(ctx, next) {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const state = ctx as unknown as { _matchedRouteName?: string; _matchedRoute?: string };
      const labels = {
        operation: state._matchedRouteName ?? (typeof state._matchedRoute === "string" ? state._matchedRoute : "unmatched"),
        method: ctx.method,
        status: String(ctx.status),
      };
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}
