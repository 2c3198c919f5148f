import { retryVersionConflicts, VersionConflict, writeChange, type Change, type Versioned } from "@bayad/events";
import type { Session, Store } from "@bayad/store";

/** Thrown inside a store transaction, it aborts it, so none of the step's other changes land either. */
export { VersionConflict };

/** writeChange, throwing VersionConflict (to abort the whole transaction) instead of returning false. */
export async function mustWriteChange<T extends Versioned>(session: Session, change: Omit<Change<T>, "store">): Promise<void> {
  if (!(await writeChange(session, change))) throw new VersionConflict(change.record._id);
}

/** A session-level write's new version (writeMove, writeNextVersion), throwing VersionConflict where it returned false. */
export async function mustLand<T extends Versioned>(write: Promise<T | false>, record: Versioned): Promise<T> {
  const next = await write;
  if (next === false) throw new VersionConflict(record._id);
  return next;
}

/**
 * Runs `work` as one store transaction; when a version conflict (or what `alsoConflict` says is
 * one) aborts it, runs it again, and `work` re-reads what it decides from (with the session).
 * Bounded, with jittered pauses, ending in 409 CONCURRENT_MODIFICATION: see retryVersionConflicts.
 */
export function transactionRetryingConflicts<R>(
  store: Store,
  work: (session: Session) => Promise<R>,
  alsoConflict: (error: unknown) => boolean = () => false,
): Promise<R> {
  return retryVersionConflicts(() => store.transaction(work), alsoConflict);
}
