import http from "node:http";
import { createLogger, createMetricsRegistry, type Registry } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { readGatewayConfig } from "../config.js";
import { startGateway, type RunningGateway } from "../gateway.js";

/*
 * Gateways for the dashboard's session and sign-in tests: no service behind them (sessions and
 * admin operations on sessions need none), a store that tests may share between gateways, and
 * requests made with node:http so a test can set Host and X-Forwarded-For as a proxy would.
 */

const logger = createLogger("test", process.env.LOG_LEVEL ?? "silent");
export const gatewaySecret = "test-gateway-secret-0123456789abcdef";

export interface DashboardGateway {
  gateway: RunningGateway;
  metrics: Registry;
  request(method: string, path: string, options?: { headers?: Record<string, string>; body?: unknown }): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A gateway on a free port with `env` (ADMIN_API_KEY at least) over `store` (a new one unless given). */
export async function startDashboardGateway(env: Record<string, string>, store: Store = createEmbeddedStore()): Promise<DashboardGateway> {
  const metrics = createMetricsRegistry();
  const gateway = await startGateway({
    config: readGatewayConfig({ PORT: "0", METRICS_PORT: "0", GATEWAY_SECRET: gatewaySecret, ...env }),
    store,
    // Never called: no test here reaches a service.
    services: { payments: "http://127.0.0.1:1" },
    logger,
    metrics,
  });
  return {
    gateway,
    metrics,
    request: (method, path, options = {}) => send(gateway.url, method, path, options),
    close: () => gateway.close(),
  };
}

function send(baseUrl: string, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown }): Promise<Reply> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...options.headers };
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, baseUrl), { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Empty bodies stay text.
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: parsed });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The one Set-Cookie of a reply. */
export function setCookieOf(reply: Reply): string {
  const values = reply.headers["set-cookie"] ?? [];
  return values[0] ?? "";
}

/** What a browser sends back for a Set-Cookie value: `name=value`. */
export function cookieOf(setCookie: string): string {
  return setCookie.split(";")[0] ?? "";
}
