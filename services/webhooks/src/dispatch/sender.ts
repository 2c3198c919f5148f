import { Agent, request } from "undici";
import type { Environment } from "@bayad/kit";
import { guardedLookup, ipLiteralOf, refusedAddress, systemResolver, TargetRefusedError, type Resolver, type TargetPolicy } from "./target-policy.js";

export interface DeliveryRequest {
  url: string;
  environment: Environment;
  body: string;
  headers: Record<string, string>;
}

/** What the receiver answered, or why there was no answer (a timeout, a refused address, no connection). */
export type SendResult = { statusCode: number } | { error: string };

export interface Sender {
  send(delivery: DeliveryRequest, policy: TargetPolicy): Promise<SendResult>;
  close(): Promise<void>;
}

export interface SenderOptions {
  /** WEBHOOK_TIMEOUT: the whole attempt, from resolving the host to the response's status. */
  timeoutMs: number;
  /** How host names are resolved (the system's resolver; tests give their own). */
  resolve?: Resolver;
}

/** At most this much of a response body is read (and thrown away) before the connection is let go. */
const RESPONSE_BODY_LIMIT = 4096;

/** "15s" for whole seconds, else "1500ms". */
export function durationText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** What to record of a failed POST: the refusal, a timeout, or the error code (ECONNREFUSED, a TLS code). */
function failureOf(error: unknown, timedOut: boolean, timeoutMs: number): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof TargetRefusedError) return current.message;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && TIMEOUT_CODES.has(code)) return `timed out after ${durationText(timeoutMs)}`;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET" && code !== "UND_ERR_ABORTED") return code;
    // A host with several addresses fails with one error per address tried.
    current = current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause;
  }
  if (timedOut) return `timed out after ${durationText(timeoutMs)}`;
  return error instanceof Error && (error as { code?: unknown }).code === "UND_ERR_SOCKET" ? "connection closed without an answer" : "connection failed";
}

/**
 * Posts deliveries with undici, one keep-alive pool per target policy: a test-mode endpoint that
 * may reach private addresses never shares a connection with one that may not (a pooled socket
 * is reused without a new look-up). Redirects are not followed (a 3xx is a failure), and the
 * response body is discarded.
 */
export function createSender(options: SenderOptions): Sender {
  const resolve = options.resolve ?? systemResolver;
  const agents = new Map<boolean, Agent>();
  const agentFor = (policy: TargetPolicy): Agent => {
    let agent = agents.get(policy.allowPrivate);
    if (!agent) {
      agent = new Agent({
        connect: { lookup: guardedLookup(policy, resolve), timeout: options.timeoutMs },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      agents.set(policy.allowPrivate, agent);
    }
    return agent;
  };

  return {
    async send(delivery, policy) {
      const url = new URL(delivery.url);
      if (delivery.environment === "live" && url.protocol !== "https:") return { error: "refused: a live endpoint must use https" };
      // A socket given an address connects without a look-up: a literal is checked here.
      const literal = ipLiteralOf(url);
      const refusal = literal !== undefined ? refusedAddress(literal, policy) : undefined;
      if (refusal) return { error: `refused: ${refusal}` };
      const signal = AbortSignal.timeout(options.timeoutMs);
      try {
        const response = await request(url, { dispatcher: agentFor(policy), method: "POST", headers: delivery.headers, body: delivery.body, signal });
        await response.body.dump({ limit: RESPONSE_BODY_LIMIT }).catch(() => undefined);
        return { statusCode: response.statusCode };
      } catch (error) {
        return { error: failureOf(error, signal.aborted, options.timeoutMs) };
      }
    },

    async close() {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}
