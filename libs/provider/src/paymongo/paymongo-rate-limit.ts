import { pause } from "@bayad/kit";

/** PayMongo blocks a key that sends more than 100 requests in a second [O docs/rate-limiting-errors]. */
export const PAYMONGO_REQUESTS_PER_SECOND = 100;

const WINDOW_MS = 1_000;

/**
 * Keeps each PayMongo key under its request rate, in this process: a sliding window of the
 * last `limit` send times per key, so no second ever holds more than `limit` requests of one
 * key (a token bucket would let a full bucket plus its refill through in one second). A 429's
 * Retry-After holds every request of that key until it has passed.
 *
 * Replicas each keep their own window; PayMongo's 429 (retried with backoff) covers the rest.
 */
export interface PaymongoRateLimit {
  /** Resolves when a request of this key may be sent, and counts it as sent. */
  take(keyId: string): Promise<void>;
  /** PayMongo said to wait: no request of this key leaves before `ms` from now. */
  holdFor(keyId: string, ms: number): void;
}

interface KeyWindow {
  sent: number[];
  heldUntil: number;
  /** Requests of the key queue here, so they leave in order and the window is read by one at a time. */
  queue: Promise<void>;
}

/** The clock the limiter reads and waits on; tests pass one they move themselves. */
export interface RateLimitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: RateLimitClock = { now: () => Date.now(), sleep: pause };

export function createPaymongoRateLimit(limit = PAYMONGO_REQUESTS_PER_SECOND, clock: RateLimitClock = realClock): PaymongoRateLimit {
  const windows = new Map<string, KeyWindow>();
  const windowOf = (keyId: string): KeyWindow => {
    let window = windows.get(keyId);
    if (!window) {
      window = { sent: [], heldUntil: 0, queue: Promise.resolve() };
      windows.set(keyId, window);
    }
    return window;
  };

  const admit = async (window: KeyWindow): Promise<void> => {
    for (;;) {
      const now = clock.now();
      while (window.sent.length > 0 && window.sent[0] <= now - WINDOW_MS) window.sent.shift();
      const waitMs = Math.max(window.heldUntil - now, window.sent.length >= limit ? window.sent[0] + WINDOW_MS - now : 0);
      if (waitMs <= 0) {
        window.sent.push(now);
        return;
      }
      await clock.sleep(waitMs);
    }
  };

  return {
    take(keyId) {
      const window = windowOf(keyId);
      const turn = window.queue.then(() => admit(window));
      window.queue = turn;
      return turn;
    },
    holdFor(keyId, ms) {
      const window = windowOf(keyId);
      window.heldUntil = Math.max(window.heldUntil, clock.now() + ms);
    },
  };
}
