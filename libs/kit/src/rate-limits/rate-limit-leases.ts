import type { RateLimitCharge, RateLimitOutcome, RateLimiter, RateLimitState } from "./rate-limiter.js";
import { sliceEndsAt } from "./sliding-window.js";

/**
 * A process's fast path in front of the store-backed limiter, for limits every request pays for.
 *
 * Instead of one store round trip per call, the process counts several calls in the store at once
 * (a lease) and hands them out locally until they run out or the slice they were counted in ends.
 * A call made within the slice it was counted in counts exactly as if it had been counted when
 * made (sliding-window.ts counts whole slices), so the limits still hold across every process
 * sharing the store: never more than `limit` calls in any window. What a lease holds unused when
 * its slice ends still counts until it leaves the window: a key may be refused a little before it
 * has made `limit` calls (erring towards refusing), by at most what one process leased for it in
 * one slice. A lease asks for as many calls as the key made here in the previous slice (at least
 * one, at most half of what the limits had left), so a steady caller wastes little and a caller
 * near a limit leases one call at a time. A refusal is kept until the fullest limit has room
 * again: until then the store would refuse too, since only calls leaving the window make room.
 */
export interface RateLimitLeases {
  /** Lets one call through `charges` (always the same ones for one `leaseKey`), or refuses it. */
  take(leaseKey: string, charges: readonly RateLimitCharge[]): RateLimitOutcome | Promise<RateLimitOutcome>;
}

interface Lease {
  /** Calls counted in the store and not yet handed out. */
  left: number;
  /** When the slice they were counted in ends (the earliest across the limits). */
  validUntil: number;
  /** Where the limits stood when the store counted them (`remaining` not counting `left`). */
  limits: RateLimitState[];
  /** The store's last refusal, and until when it holds. */
  refusal?: { until: number; limits: RateLimitState[] };
  /** Calls asked for in the slice ending at `demandSliceEnd`, and in the slice before it. */
  demand: number;
  previousDemand: number;
  demandSliceEnd: number;
  /** A lease being counted in the store: later calls wait for it rather than asking again. */
  pending?: Promise<void>;
}

/** When the first of the charges' slices holding `at` ends. A loop: it runs on every call. */
function earliestSliceEnd(charges: readonly RateLimitCharge[], at: number): number {
  let end = Infinity;
  for (const charge of charges) end = Math.min(end, sliceEndsAt(charge.setting, at));
  return end;
}

/** The limits as a call served from a lease sees them: `left` calls still leased count as remaining. */
function withLeft(limits: readonly RateLimitState[], left: number): RateLimitState[] {
  const seen: RateLimitState[] = [];
  for (const limit of limits) seen.push({ scope: limit.scope, setting: limit.setting, remaining: limit.remaining + left, resetAt: limit.resetAt });
  return seen;
}

/** Leases idle this long are forgotten when the table is pruned. */
const PRUNE_EVERY_MS = 10_000;

export function createRateLimitLeases(limiter: RateLimiter, options: { now?: () => number; maxLease?: number } = {}): RateLimitLeases {
  const now = options.now ?? Date.now;
  const maxLease = options.maxLease ?? 1_000;
  const leases = new Map<string, Lease>();
  let prunedAt = now();

  function prune(at: number): void {
    if (at - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = at;
    for (const [key, lease] of leases) {
      if (!lease.pending && lease.demandSliceEnd < at - PRUNE_EVERY_MS && (lease.refusal?.until ?? 0) < at) leases.delete(key);
    }
  }

  /** Counts a new lease for `lease` in the store; the calls waiting meanwhile share it. */
  function renew(lease: Lease, charges: readonly RateLimitCharge[], at: number): Promise<void> {
    const known = lease.limits.length > 0 ? Math.min(...lease.limits.map((limit) => limit.remaining)) : Infinity;
    const wanted = Math.max(1, Math.min(maxLease, Math.max(lease.demand, lease.previousDemand), Math.floor(known / 2)));
    const validUntil = earliestSliceEnd(charges, at);
    lease.pending = limiter
      .take(charges, wanted)
      .then((outcome) => {
        lease.limits = outcome.limits;
        if (outcome.allowed) {
          lease.left = outcome.calls;
          lease.validUntil = validUntil;
          lease.refusal = undefined;
        } else {
          lease.left = 0;
          const full = outcome.limits.filter((limit) => limit.remaining === 0).map((limit) => limit.resetAt);
          lease.refusal = { until: Math.max(now() + 1, ...full), limits: outcome.limits };
        }
      })
      .finally(() => {
        lease.pending = undefined;
      });
    return lease.pending;
  }

  async function afterRenewal(pending: Promise<void>, leaseKey: string, charges: readonly RateLimitCharge[], arrivedAt: number): Promise<RateLimitOutcome> {
    await pending;
    return serve(leaseKey, charges, arrivedAt);
  }

  /**
   * Serves a call that arrived at `arrivedAt` (now, unless it waited for a lease). A call is
   * judged by when it arrived, as the limiter judges a call by when it asked: a lease counted in
   * the slice a call arrived in, or a later one, counts it no earlier than it was made, so it may
   * use the lease however long the store took to answer.
   */
  function serve(leaseKey: string, charges: readonly RateLimitCharge[], arrivedAt?: number): RateLimitOutcome | Promise<RateLimitOutcome> {
    const counted = arrivedAt !== undefined;
    const at = arrivedAt ?? now();
    let lease = leases.get(leaseKey);
    if (!lease) {
      prune(at);
      lease = { left: 0, validUntil: 0, limits: [], demand: 0, previousDemand: 0, demandSliceEnd: 0 };
      leases.set(leaseKey, lease);
    }
    if (!counted) {
      const sliceEnd = earliestSliceEnd(charges, at);
      if (sliceEnd !== lease.demandSliceEnd) {
        lease.previousDemand = lease.demand;
        lease.demand = 0;
        lease.demandSliceEnd = sliceEnd;
      }
      lease.demand += 1;
    }
    if (lease.refusal && at < lease.refusal.until) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lease.refusal.until - at) / 1000)), limits: lease.refusal.limits };
    }
    if (lease.left > 0 && at < lease.validUntil) {
      lease.left -= 1;
      return { allowed: true, calls: 1, limits: withLeft(lease.limits, lease.left) };
    }
    return afterRenewal(lease.pending ?? renew(lease, charges, at), leaseKey, charges, at);
  }

  return {
    take: (leaseKey, charges) => serve(leaseKey, charges),
  };
}
