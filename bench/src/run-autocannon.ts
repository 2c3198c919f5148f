import autocannon from "autocannon";
import { latencyPercentiles, type LatencySummary } from "./latency.js";

/** The HTTP request a run sends over and over. */
export interface RequestPlan {
  method: "GET" | "POST";
  /** Path and query, e.g. "/api/v1/payments/records?limit=50". */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Parts made afresh for every request (a new Idempotency-Key, a new referenceId), merged over
   * `headers` and `body`. Called in the benchmark's process, so it must be cheap.
   */
  perRequest?: () => { headers?: Record<string, string>; body?: string };
  /**
   * Names a response's outcome for the tally, e.g. "200", "201 replayed", "429 RATE_LIMITED".
   * Defaults to the status for 2xx and the status with the envelope's error code otherwise.
   */
  outcome?: (status: number, body: string, headers: Record<string, unknown>) => string;
}

export interface LoadSettings {
  connections: number;
  /** Measured seconds; ignored when `amount` is set. */
  durationSeconds?: number;
  /** Send exactly this many requests, then stop. */
  amount?: number;
  /** Seconds of unmeasured load first, so JIT, pools and caches are warm. */
  warmupSeconds?: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second request counts. */
  requestsPerSecond: number;
  /** From every response's own time, sub-millisecond (autocannon's histogram is whole ms). */
  latency: LatencySummary;
  requests: number;
  durationSeconds: number;
  /** Connection errors and timeouts: a request without a response. */
  errors: number;
  timeouts: number;
  /** How many responses had each outcome. */
  outcomes: Record<string, number>;
}

/** Status for 2xx; status and the error envelope's code otherwise ("429 RATE_LIMITED"). */
export function defaultOutcome(status: number, body: string): string {
  if (status >= 200 && status < 300) return String(status);
  return `${status} ${errorCode(body)}`;
}

function errorCode(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === "string" ? parsed.error.code : "(no error code)";
  } catch {
    return "(body not JSON)";
  }
}

/** Runs the warm-up (if any), then the measured load, against `baseUrl`; `measuring` is called between the two. */
export async function runLoad(baseUrl: string, plan: RequestPlan, settings: LoadSettings, measuring?: () => void): Promise<LoadResult> {
  if (settings.warmupSeconds && settings.warmupSeconds > 0) {
    await measure(baseUrl, plan, { connections: settings.connections, durationSeconds: settings.warmupSeconds });
  }
  measuring?.();
  return measure(baseUrl, plan, settings);
}

function measure(baseUrl: string, plan: RequestPlan, settings: LoadSettings): Promise<LoadResult> {
  const outcomes: Record<string, number> = {};
  const latencies: number[] = [];
  const classify = plan.outcome ?? defaultOutcome;
  const perRequest = plan.perRequest;
  const request: autocannon.Request = {
    method: plan.method,
    path: plan.path,
    headers: plan.headers ?? {},
    body: plan.body,
    onResponse(status, body, _context, headers) {
      const name = classify(status, body, headers ?? {});
      outcomes[name] = (outcomes[name] ?? 0) + 1;
    },
  };
  if (perRequest) {
    request.setupRequest = (built) => {
      const fresh = perRequest();
      if (fresh.headers) built.headers = { ...built.headers, ...fresh.headers };
      if (fresh.body !== undefined) built.body = fresh.body;
      return built;
    };
  }
  // Fewer requests than connections would leave some connections with nothing to send.
  const connections = settings.amount ? Math.min(settings.connections, settings.amount) : settings.connections;

  return new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        pipelining: 1,
        // autocannon rejects an undefined duration rather than using its default.
        ...(settings.amount === undefined ? { duration: settings.durationSeconds ?? 10 } : { amount: settings.amount }),
        requests: [request],
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) {
          reject(error instanceof Error ? error : new Error("autocannon failed", { cause: error }));
          return;
        }
        resolve({
          requestsPerSecond: result.requests.average,
          latency: latencyPercentiles(latencies),
          requests: latencies.length,
          durationSeconds: result.duration,
          errors: result.errors,
          timeouts: result.timeouts,
          outcomes,
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
}
