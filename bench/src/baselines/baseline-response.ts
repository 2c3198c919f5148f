/**
 * What both baseline servers answer to `GET /`: a small JSON object, serialized per request as a
 * real handler would, so the baselines measure the cost of HTTP and the framework and nothing
 * else. The gateway's rows are divided by these to show what the platform itself costs.
 */
export const baselineResponse = { ok: true, service: "baseline" } as const;

/** The baselines listen on loopback only, on a free port. */
export const baselineHost = "127.0.0.1";

/** What a baseline server sends with its ready message. */
export interface BaselineReady {
  url: string;
}
