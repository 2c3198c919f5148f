import { setTimeout as sleep } from "node:timers/promises";
import { BayadError } from "./errors.js";
import { backoffDelay, retryAfterMs, transientConflictCodes, unsettledCodes, type RetrySettings } from "./retry-policy.js";

export type Fetch = (request: Request) => Promise<Response>;

type Verdict = { retry: false } | { retry: true; reason: string; counted: boolean; afterMs?: number };

/**
 * A fetch that makes one call's attempts: the same Request (so the same Idempotency-Key) each
 * time, each attempt under its own timeout, within the call's deadline, pausing with jittered
 * exponential backoff (or the answer's Retry-After) between them. It answers the first response
 * that is not to be retried, or the last answer when the retries or the deadline run out (an
 * attempt cut short by the deadline does not hide the answer before it); a call that never got
 * an answer throws a BayadError (`NETWORK_ERROR` or `TIMEOUT`, status 0).
 * An abort by the caller's signal is never retried.
 *
 * Home-made rather than a resilience library's retry policy because the rules are the API's own:
 * which 409s are retried, that the unsettled ones are bounded by the deadline and not by the
 * retry count, and that Retry-After overrides the backoff.
 */
export function retryingFetch(fetchImpl: Fetch, settings: RetrySettings, signal?: AbortSignal, body: "timed" | "untimed" = "timed"): Fetch {
  return async (request) => {
    const deadline = Date.now() + settings.deadlineMs;
    let counted = 0;
    // The last answer that was to be retried, kept to be answered if no later attempt gets one.
    let previous: Response | undefined;
    for (let attempt = 1; ; attempt++) {
      const attemptTimeout = new AbortController();
      const timer = setTimeout(
        () => attemptTimeout.abort(new DOMException("The attempt timed out.", "TimeoutError")),
        Math.max(1, Math.min(settings.timeoutMs, deadline - Date.now())),
      );
      // As AbortSignal.timeout's: a pending attempt timer never keeps the process alive.
      timer.unref();
      const attemptSignal = signal ? AbortSignal.any([signal, attemptTimeout.signal]) : attemptTimeout.signal;
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await fetchImpl(new Request(request.clone(), { signal: attemptSignal }));
      } catch (error) {
        if (signal?.aborted) throw error;
        failure = error;
      } finally {
        // "untimed": a stream (the records export) may take far longer than an attempt to read;
        // the timeout bounds the wait for its answer only. The caller's signal still stops it.
        if (body === "untimed") clearTimeout(timer);
      }

      const verdict: Verdict = response
        ? await verdictOf(response)
        : { retry: true, reason: attemptTimeout.signal.aborted ? "TIMEOUT" : "NETWORK_ERROR", counted: true };
      if (!verdict.retry) return response!;

      if (verdict.counted) counted++;
      const delayMs = verdict.afterMs ?? backoffDelay(attempt, settings);
      const outOfRetries = verdict.counted && counted > settings.maxRetries;
      if (outOfRetries || Date.now() + delayMs >= deadline) {
        if (response) return response;
        if (previous) return previous;
        throw new BayadError(`${verdict.reason}: ${request.method} ${request.url} got no answer after ${attempt} attempt(s)`, {
          code: verdict.reason,
          status: 0,
          cause: failure,
        });
      }
      // Read now, so that the attempt's timeout firing later cannot cut the kept body short.
      if (response) previous = await buffered(response).catch(() => previous);
      settings.onRetry?.({ method: request.method, url: request.url, attempt: attempt + 1, reason: verdict.reason, delayMs });
      await sleep(delayMs, undefined, signal ? { signal } : undefined);
    }
  };
}

async function buffered(response: Response): Promise<Response> {
  const { status, statusText, headers } = response;
  return new Response(await response.arrayBuffer(), { status, statusText, headers });
}

async function verdictOf(response: Response): Promise<Verdict> {
  const { status } = response;
  if (status === 429) return { retry: true, reason: "RATE_LIMITED", counted: true, afterMs: retryAfterMs(response.headers.get("retry-after")) };
  // 501 is an operation not built yet: asking again will not build it.
  if (status >= 500 && status !== 501) return { retry: true, reason: (await errorCodeOf(response)) ?? `HTTP_${status}`, counted: true };
  if (status === 409) {
    const code = await errorCodeOf(response);
    if (code !== undefined && unsettledCodes.has(code)) return { retry: true, reason: code, counted: false };
    if (code !== undefined && transientConflictCodes.has(code)) return { retry: true, reason: code, counted: true };
  }
  return { retry: false };
}

/** The envelope's `error.code`, read from a copy so that the response's own body stays unread. */
async function errorCodeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body?.error?.code === "string" ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}
