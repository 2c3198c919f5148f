import { doublingDelay } from "@bayad/kit";
import type { Collection, Filter } from "@bayad/store";

/**
 * When the provider reconciler reads a resource next, written on the resource itself
 * (`reconcile`) by the reconciler alone. Every read schedules the next: a read that failed backs
 * off (doubling, at most an hour), so a resource the provider never answers for costs one read
 * per backoff instead of holding the head of the queue; a read that found nothing final comes
 * back after one interval. Reads go in `reconcile.nextAt` order (never read first), so every
 * resource gets its turn whatever stands before it.
 */
export interface ReconcileState {
  /** Failed reads in a row (0 after a read that worked). */
  failures: number;
  nextAt: Date;
  /** Why the last read failed: an error code or name, never a provider's body. */
  lastError?: string;
}

export interface Reconcilable {
  _id: string;
  providerAccountId?: string;
  reconcile?: ReconcileState;
}

const MAX_BACKOFF_MS = 3_600_000;

/** The resources of provider accounts not in `skipAccounts` whose next read is due at `now`. */
export function dueForReconciliation(now: Date, skipAccounts: readonly string[]): Filter {
  return {
    providerAccountId: skipAccounts.length > 0 ? { $exists: true, $nin: [...skipAccounts] } : { $exists: true },
    $or: [{ "reconcile.nextAt": { $exists: false } }, { "reconcile.nextAt": { $lte: now } }],
  };
}

/** Longest-waiting first: never read, then by when the read was due. */
export const reconciliationOrder = { "reconcile.nextAt": 1, createdAt: 1 } as const;

export function failureBackoffMs(failures: number, intervalMs: number): number {
  return doublingDelay({ initialDelayMs: Math.max(intervalMs, 1_000), maxDelayMs: MAX_BACKOFF_MS }, failures);
}

/** Records a read: `open` (it worked; nothing final) or a failure (`error` names it). */
export async function scheduleNextRead<T extends Reconcilable>(
  collection: Collection<T>,
  record: T,
  read: { ok: true } | { ok: false; error: string },
  now: Date,
  intervalMs: number,
): Promise<ReconcileState> {
  const failures = read.ok ? 0 : (record.reconcile?.failures ?? 0) + 1;
  const state: ReconcileState = {
    failures,
    nextAt: new Date(now.getTime() + (read.ok ? intervalMs : failureBackoffMs(failures, intervalMs))),
    ...(read.ok ? {} : { lastError: read.error }),
  };
  // Not a change of the resource (no version, no event): only the reconciler's bookkeeping.
  await collection.updateOne({ _id: record._id }, { $set: { reconcile: state } });
  return state;
}
