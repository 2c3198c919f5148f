import { AppError } from "@bayad/kit";
import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import { keyedDigest } from "../codes/code-hash.js";
import type { RateLimitSetting } from "../config.js";
import { callsInWindow, sliceWidthMs, withCall, type Slice } from "./sliding-window.js";

/**
 * The calls one limit has let through for one key, in slices of its window (see sliding-window.ts).
 * `_id` is scope:keyDigest, so every replica counting the same thing writes the same document;
 * `version` makes each write conditional on what its writer read.
 */
interface RateLimitRecord {
  _id: string;
  scope: string;
  slices: Slice[];
  version: number;
  /** When the newest slice has left the window: the TTL index removes the record some time after. */
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
   * Lets one call through every limit, or throws RATE_LIMITED with Retry-After (seconds until the
   * fullest limit has room again). A refused call is counted by none of them, except in a race:
   * a limit that concurrent calls fill between the check and the count refuses the call after
   * the limits before it have counted it (erring towards refusing).
   */
  charge(charges: RateLimitCharge[]): Promise<void>;
}

/** Gives up on a write that kept meeting concurrent ones; each lost turn was another call counted. */
const MAX_TURNS = 50;

/**
 * Sliding-window limits kept in the store, so they hold across replicas: at most `limit` calls in
 * any `windowSeconds`, also across a window's boundary. All limits are checked before any is
 * charged, so a call refused by one limit uses up none of the others. Each charge is a
 * conditional write of what its writer read; a writer that lost a race reads and decides again.
 */
export function createRateLimiter(store: Store, options: { secret: string; now: () => Date }): RateLimiter {
  const records = store.collection<RateLimitRecord>(rateLimitsCollection);
  const idOf = (charge: RateLimitCharge) => `${charge.scope}:${keyedDigest(options.secret, "rate-limit", charge.key)}`;

  /** Throws RATE_LIMITED when `slices` leave no room for one more call at `now`. */
  function ensureRoom(charge: RateLimitCharge, slices: Slice[], now: number): void {
    const room = callsInWindow(slices, charge.setting, now);
    if (room.count < charge.setting.limit) return;
    const retryAfter = Math.max(1, Math.ceil((room.freeAt - now) / 1000));
    throw new AppError("RATE_LIMITED", "Too many requests; retry after the Retry-After interval.", {
      headers: { "Retry-After": String(retryAfter) },
    });
  }

  /**
   * Counts one call at `now` over `read` (the record as the check read it), if there is still room
   * once concurrent writers are accounted for: after a lost race it reads again.
   */
  async function record(charge: RateLimitCharge, now: number, read: RateLimitRecord | null): Promise<void> {
    const id = idOf(charge);
    const windowMs = charge.setting.windowSeconds * 1000;
    let current = read;
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      if (turn > 0) current = await records.findOne({ _id: id });
      ensureRoom(charge, current?.slices ?? [], now);
      const slices = withCall(current?.slices ?? [], charge.setting, now);
      const expiresAt = new Date(slices[slices.length - 1]!.start + sliceWidthMs(charge.setting) + windowMs);
      if (!current) {
        try {
          await records.insertOne({ _id: id, scope: charge.scope, slices, version: 1, expiresAt });
          return;
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          continue;
        }
      }
      const written = await records.updateOne({ _id: id, version: current.version }, { $set: { slices, version: current.version + 1, expiresAt } });
      if (written.matched === 1) return;
    }
    throw new AppError("SERVICE_UNAVAILABLE", "The rate limit could not be counted; retry shortly.");
  }

  return {
    async charge(charges) {
      const now = options.now().getTime();
      const current = await Promise.all(charges.map((charge) => records.findOne({ _id: idOf(charge) })));
      charges.forEach((charge, i) => ensureRoom(charge, current[i]?.slices ?? [], now));
      for (const [i, charge] of charges.entries()) await record(charge, now, current[i] ?? null);
    },
  };
}
