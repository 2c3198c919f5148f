/** How the SDK retries a call: per attempt, across attempts, and in all. */
export interface RetryOptions {
  /** How long one attempt may wait for its answer, in milliseconds (default 30 000); a timed-out attempt is retried like a dropped connection. */
  timeoutMs?: number;
  /**
   * How many times a call is retried after a network error, a timeout, a 5xx (but 501), a 429 or
   * a 409 `IDEMPOTENCY_KEY_IN_PROGRESS` (default 3). Not counted: the retries of a 409
   * `PAYMENT_OUTCOME_UNKNOWN` / `IDEMPOTENCY_OUTCOME_UNKNOWN`, which go on until the outcome is
   * settled or `deadlineMs` has passed.
   */
  maxRetries?: number;
  /** How long a call may take in all, attempts, pauses and every retry included, in milliseconds (default 60 000). */
  deadlineMs?: number;
  /** The first pause between attempts, in milliseconds (default 250); each next one doubles, with jitter. */
  minDelayMs?: number;
  /** The longest pause between attempts, in milliseconds (default 10 000); a `Retry-After` is honoured as it is. */
  maxDelayMs?: number;
  /** Told before each retry, with why and how long the pause is (for logs and metrics). */
  onRetry?: (retry: RetryNotice) => void;
}

export interface RetryNotice {
  method: string;
  url: string;
  /** The attempt that is about to be made: 2 for the first retry. */
  attempt: number;
  /** `NETWORK_ERROR`, `TIMEOUT`, the error code of the answer, or `HTTP_<status>`. */
  reason: string;
  delayMs: number;
}

export type RetrySettings = Required<Omit<RetryOptions, "onRetry">> & Pick<RetryOptions, "onRetry">;

export const defaultRetrySettings: RetrySettings = {
  timeoutMs: 30_000,
  maxRetries: 3,
  deadlineMs: 60_000,
  minDelayMs: 250,
  maxDelayMs: 10_000,
};

/** Codes of a request whose outcome the platform is still reconciling: retry with the same key until it answers. */
export const unsettledCodes: ReadonlySet<string> = new Set(["PAYMENT_OUTCOME_UNKNOWN", "IDEMPOTENCY_OUTCOME_UNKNOWN"]);

/** Codes of a 409 that a retry with the same key resolves. */
export const transientConflictCodes: ReadonlySet<string> = new Set(["IDEMPOTENCY_KEY_IN_PROGRESS"]);

/**
 * The pause before attempt `attempt + 1`: `minDelayMs · 2^(attempt-1)`, capped at `maxDelayMs`,
 * drawn at random from its upper half ("equal jitter"), so that many clients failing together
 * do not come back together.
 */
export function backoffDelay(attempt: number, settings: Pick<RetrySettings, "minDelayMs" | "maxDelayMs">): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.minDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
