import { isDuplicateKeyError, type CollectionDef, type Durability, type Store } from "@bayad/store";
import { AppError } from "../errors/app-error.js";
import { pauseAfterLostRace } from "../backoff.js";
import { callsInWindow, oldestLeavesAt, sliceWidthMs, withCall, type RateLimitSetting, type Slice } from "./sliding-window.js";

/**
 * The calls one limit has let through for one key, in slices of its window (see sliding-window.ts).
 * `_id` is scope:digest(key), so every replica counting the same thing writes the same document;
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
  /** Stored only as the limiter's digest of it: it may be a recipient or a credential. */
  key: string;
}

/** Where one limit stands after a call was counted (or refused), for RateLimit headers. */
export interface RateLimitState {
  scope: string;
  setting: RateLimitSetting;
  /** How many more calls the limit lets through now. */
  remaining: number;
  /**
   * When `remaining` next grows (epoch ms): when the oldest counted call leaves the window, or,
   * for a full limit, when it has room for one call again.
   */
  resetAt: number;
}

export type RateLimitOutcome =
  | { allowed: true; /** How many calls were counted (1 to what was asked; 0 for a check). */ calls: number; limits: RateLimitState[] }
  | { allowed: false; /** Seconds until the fullest limit has room again (at least 1). */ retryAfterSeconds: number; limits: RateLimitState[] };

export interface RateLimiter {
  /**
   * Counts up to `calls` calls (as many as every limit has room for) against every limit, or, when
   * one of them is full, refuses and counts nothing. Answers where each limit stands. Except in a
   * race: a limit that concurrent calls fill between the check and the count refuses after the
   * limits before it have counted the calls (erring towards refusing).
   */
  take(charges: readonly RateLimitCharge[], calls?: number): Promise<RateLimitOutcome>;
  /**
   * Where every limit stands, counting nothing: refused when one of them is full. For a budget
   * charged only by some outcomes (failures) but guarding every attempt.
   */
  check(charges: readonly RateLimitCharge[]): Promise<RateLimitOutcome>;
  /** Lets one call through every limit (take), or throws RATE_LIMITED with Retry-After. */
  charge(charges: readonly RateLimitCharge[]): Promise<void>;
}

/** The 429 every limit answers with: `headers` carry Retry-After and whatever else the caller adds. */
export function rateLimitedError(retryAfterSeconds: number, headers: Record<string, string> = {}): AppError {
  return new AppError("RATE_LIMITED", "Too many requests; retry after the Retry-After interval.", {
    headers: { "Retry-After": String(retryAfterSeconds), ...headers },
  });
}

/** Gives up on a write that kept meeting concurrent ones; each lost turn was another call counted. */
const MAX_TURNS = 50;

export interface RateLimiterOptions {
  digest: (key: string) => string;
  now: () => Date;
  /**
   * How durable each count is (the store port's Durability; default "flushed"). "deferred" for
   * limits whose counts may be lost to an operating-system crash (they survive a process kill):
   * such a loss lets a key a little more than its limit in the window the crash fell in, and a
   * count that does not wait for the disk does not hold up the calls that wait for it (a lease
   * renewal in rate-limit-leases.ts).
   */
  durability?: Durability;
}

/**
 * Sliding-window limits kept in the store, so they hold across replicas: at most `limit` calls in
 * any `windowSeconds`, also across a window's boundary. All limits are checked before any is
 * charged, so a call refused by one limit uses up none of the others. Each charge is a
 * conditional write of what its writer read; a writer that lost a race reads and decides again.
 * Keys are stored as `digest(key)` (a keyed HMAC, so a stored record names no recipient or
 * credential).
 */
export function createRateLimiter(store: Store, options: RateLimiterOptions): RateLimiter {
  const records = store.collection<RateLimitRecord>(rateLimitsCollection);
  const written = { durability: options.durability ?? "flushed" } as const;
  const idOf = (charge: RateLimitCharge) => `${charge.scope}:${options.digest(charge.key)}`;

  function stateOf(charge: RateLimitCharge, slices: readonly Slice[], now: number): RateLimitState {
    const { count, freeAt } = callsInWindow(slices, charge.setting, now);
    const remaining = Math.max(0, charge.setting.limit - count);
    return { scope: charge.scope, setting: charge.setting, remaining, resetAt: remaining > 0 ? oldestLeavesAt(slices, charge.setting, now) : freeAt };
  }

  function refusal(charges: readonly RateLimitCharge[], slices: ReadonlyArray<readonly Slice[]>, now: number): RateLimitOutcome {
    const limits = charges.map((charge, i) => stateOf(charge, slices[i], now));
    const freeAt = Math.max(...limits.filter((limit) => limit.remaining === 0).map((limit) => limit.resetAt), now);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)), limits };
  }

  /**
   * Counts `calls` calls at `now` over `read` (the record as the check read it), if there is still
   * room once concurrent writers are accounted for: after a lost race it reads again. Answers the
   * slices written, or the slices that left no room.
   */
  async function record(charge: RateLimitCharge, id: string, now: number, read: RateLimitRecord | null, calls: number): Promise<{ slices: Slice[]; full: boolean }> {
    const windowMs = charge.setting.windowSeconds * 1000;
    let current = read;
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      if (turn > 0) {
        await pauseAfterLostRace(turn);
        current = await records.findOne({ _id: id });
      }
      const before = current?.slices ?? [];
      if (callsInWindow(before, charge.setting, now).count + calls > charge.setting.limit) return { slices: before, full: true };
      const slices = withCall(before, charge.setting, now, calls);
      const expiresAt = new Date(slices[slices.length - 1].start + sliceWidthMs(charge.setting) + windowMs);
      if (!current) {
        try {
          await records.insertOne({ _id: id, scope: charge.scope, slices, version: 1, expiresAt }, written);
          return { slices, full: false };
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          continue;
        }
      }
      const updated = await records.updateOne({ _id: id, version: current.version }, { $set: { slices, version: current.version + 1, expiresAt } }, written);
      if (updated.matched === 1) return { slices, full: false };
    }
    throw new AppError("SERVICE_UNAVAILABLE", "The rate limit could not be counted; retry shortly.");
  }

  async function readAll(ids: readonly string[]) {
    const read = await Promise.all(ids.map((id) => records.findOne({ _id: id })));
    return { read, slices: read.map((record) => record?.slices ?? []) };
  }

  async function check(charges: readonly RateLimitCharge[]): Promise<RateLimitOutcome> {
    const now = options.now().getTime();
    const { slices } = await readAll(charges.map(idOf));
    const full = charges.some((charge, i) => callsInWindow(slices[i], charge.setting, now).count >= charge.setting.limit);
    if (full) return refusal(charges, slices, now);
    return { allowed: true, calls: 0, limits: charges.map((charge, i) => stateOf(charge, slices[i], now)) };
  }

  async function take(charges: readonly RateLimitCharge[], calls = 1): Promise<RateLimitOutcome> {
    const now = options.now().getTime();
    // Each key digested once per call: the read and the write name the same record.
    const ids = charges.map(idOf);
    const { read, slices } = await readAll(ids);
    const room = charges.map((charge, i) => charge.setting.limit - callsInWindow(slices[i], charge.setting, now).count);
    if (room.some((left) => left <= 0)) return refusal(charges, slices, now);
    const counted = Math.min(calls, ...room);
    for (const [i, charge] of charges.entries()) {
      const counting = await record(charge, ids[i], now, read[i] ?? null, counted);
      slices[i] = counting.slices;
      if (counting.full) return refusal(charges, slices, now);
    }
    return { allowed: true, calls: counted, limits: charges.map((charge, i) => stateOf(charge, slices[i], now)) };
  }

  return {
    take,
    check,
    async charge(charges) {
      const outcome = await take(charges);
      if (!outcome.allowed) throw rateLimitedError(outcome.retryAfterSeconds);
    },
  };
}
