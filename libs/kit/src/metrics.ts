import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Interceptor } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { Histogram, Registry, collectDefaultMetrics, type Metric } from "prom-client";

export { Registry, Gauge, Counter, Histogram } from "prom-client";

/** A process's Prometheus registry, with the Node.js process metrics (memory, event loop, GC). */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "bayad_" });
  return registry;
}

/**
 * The metric `name` of `registry`, made on first use. Several services share one registry when
 * they run in one process, so each metric is defined once and told apart by its labels.
 */
export function metricOnce<T extends Metric>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** Latency buckets (seconds) for calls that usually take milliseconds. */
export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Times every rpc a service serves, by procedure and gRPC status code; the histogram's `_count`
 * series is the call count, so no separate counter is kept.
 */
export function rpcMetricsInterceptor(registry: Registry, service: string): Interceptor {
  const duration = metricOnce(registry, "bayad_rpc_request_duration_seconds", () =>
    new Histogram({
      name: "bayad_rpc_request_duration_seconds",
      help: "Time to serve an RPC, by service, procedure and gRPC code.",
      labelNames: ["service", "procedure", "code"],
      buckets: latencyBuckets,
      registers: [registry],
    }),
  );
  return (next) => async (request) => {
    const started = process.hrtime.bigint();
    let code = "ok";
    try {
      return await next(request);
    } catch (error) {
      code = Code[ConnectError.from(error).code]?.toLowerCase() ?? "unknown";
      throw error;
    } finally {
      duration.observe({ service, procedure: request.method.name, code }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** What a metrics endpoint serves: a registry, or anything that answers Prometheus text like one. */
export type MetricsSource = Pick<Registry, "metrics" | "contentType">;

/**
 * Serves `registry` at GET /metrics on its own port: for processes whose main port speaks gRPC,
 * and for the gateway, whose main port is public.
 */
export async function serveMetrics(registry: MetricsSource, options: { host: string; port: number }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "Content-Type": registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
