import type { Account } from "./auth.js";

export interface RateLimitOptions {
  /** Requests per window per endpoint per account with a test key; Xendit's default is 60 a minute [O]. */
  test: number;
  /** The same with a live key; Xendit's default is 600 a minute [O]. */
  live: number;
  /** The sliding window's length; 60 000 ms as Xendit's, shorter in tests. */
  windowMs: number;
}

export const XENDIT_RATE_LIMITS: RateLimitOptions = { test: 60, live: 600, windowMs: 60_000 };

export interface RateLimitVerdict {
  exceeded: boolean;
  /** `Rate-Limit-Limit`, `Rate-Limit-Remaining`, `Rate-Limit-Reset` (seconds) [O apidocs/rate-limits]. */
  headers: Record<string, string>;
}

/**
 * Xendit's sliding-window limit per endpoint per account [O]: each (account, endpoint) keeps the
 * times of its requests within the window; one more than the limit is turned away (and not
 * counted), and Reset says when the oldest leaves the window.
 */
export class RateLimit {
  private readonly windows = new Map<string, number[]>();

  constructor(private options: RateLimitOptions = XENDIT_RATE_LIMITS) {}

  configure(options: Partial<RateLimitOptions>): RateLimitOptions {
    this.options = { ...this.options, ...options };
    this.windows.clear();
    return this.current();
  }

  current(): RateLimitOptions {
    return { ...this.options };
  }

  count(account: Account, endpoint: string): RateLimitVerdict {
    const now = Date.now();
    const key = `${account.owner} ${endpoint}`;
    const times = (this.windows.get(key) ?? []).filter((t) => t > now - this.options.windowMs);
    const limit = account.mode === "live" ? this.options.live : this.options.test;
    const exceeded = times.length >= limit;
    if (!exceeded) times.push(now);
    this.windows.set(key, times);
    const oldest = times[0] ?? now;
    const resetSeconds = Math.max(1, Math.ceil((oldest + this.options.windowMs - now) / 1000));
    return {
      exceeded,
      headers: {
        "rate-limit-limit": String(limit),
        "rate-limit-remaining": String(Math.max(0, limit - times.length)),
        "rate-limit-reset": String(resetSeconds),
      },
    };
  }
}
