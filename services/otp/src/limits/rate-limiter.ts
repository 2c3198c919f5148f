import { AppError } from "@bayad/kit";
import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import { keyedDigest } from "../codes/code-hash.js";
import type { RateLimitSetting } from "../config.js";

/**
 * One counter per limit, key and window. `_id` is scope:keyDigest:windowStart, so every
 * replica counting the same thing in the same window increments the same document.
 */
interface RateLimitRecord {
  _id: string;
  scope: string;
  count: number;
  windowStart: Date;
  /** The window's end: the TTL index removes the counter some time after it. */
  expiresAt: Date;
}

const rateLimitsCollection: CollectionDef = {
  name: "rate_limits",
  indexes: [{ name: "rate_limits_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 }],
};

/** One limit to charge: its name (the scope), its setting and what it counts (the key). */
export interface RateLimitCharge {
  scope: string;
  setting: RateLimitSetting;
  /** Hashed before it is stored: it may be a recipient. */
  key: string;
}

export interface RateLimiter {
  /**
   * Counts one call against each limit in order and throws RATE_LIMITED, with Retry-After
   * (seconds until that window ends), at the first one that is exceeded. Later limits are then
   * not charged.
   */
  charge(charges: RateLimitCharge[]): Promise<void>;
}

/**
 * Fixed-window limits kept in the store, so they hold across replicas: each call is one atomic
 * `$inc` upsert of its window's counter, and the count it returns decides. A refused call has
 * been counted too (it keeps the window closed; it does not extend it).
 */
export function createRateLimiter(store: Store, options: { secret: string; now: () => Date }): RateLimiter {
  const counters = store.collection<RateLimitRecord>(rateLimitsCollection);

  async function increment(charge: RateLimitCharge, windowStart: number, windowEnd: number): Promise<number> {
    const id = `${charge.scope}:${keyedDigest(options.secret, "rate-limit", charge.key)}:${windowStart}`;
    const update = {
      $inc: { count: 1 },
      $setOnInsert: { scope: charge.scope, windowStart: new Date(windowStart), expiresAt: new Date(windowEnd) },
    };
    try {
      const after = await counters.findOneAndUpdate({ _id: id }, update, { upsert: true, returnDocument: "after" });
      return after?.count ?? 1;
    } catch (error) {
      // Two first calls of a window may both try to insert; the loser's retry is an update.
      if (!isDuplicateKeyError(error)) throw error;
      const after = await counters.findOneAndUpdate({ _id: id }, update, { upsert: true, returnDocument: "after" });
      return after?.count ?? 1;
    }
  }

  return {
    async charge(charges) {
      const now = options.now().getTime();
      for (const charge of charges) {
        const windowMs = charge.setting.windowSeconds * 1000;
        const windowStart = Math.floor(now / windowMs) * windowMs;
        const windowEnd = windowStart + windowMs;
        const count = await increment(charge, windowStart, windowEnd);
        if (count > charge.setting.limit) {
          const retryAfter = Math.max(1, Math.ceil((windowEnd - now) / 1000));
          throw new AppError("RATE_LIMITED", "Too many requests; retry after the Retry-After interval.", {
            headers: { "Retry-After": String(retryAfter) },
          });
        }
      }
    },
  };
}
