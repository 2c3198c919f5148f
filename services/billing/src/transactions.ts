import { writeChange, type Change, type Versioned } from "@bayad/events";
import type { Session, Store } from "@bayad/store";

/**
 * Another change to a resource landed between reading it and writing it. Thrown inside a store
 * transaction, it aborts the transaction, so none of the step's other changes land either; the
 * step then re-reads and decides again.
 */
export class VersionConflict extends Error {
  constructor(resourceId: string) {
    super(`${resourceId} changed while it was being written`);
    this.name = "VersionConflict";
  }
}

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

// Each conflict means some other change landed, so losing this often in a row is not contention
// but a fault; failing loudly beats spinning.
const MAX_ATTEMPTS = 20;

/**
 * Runs `work` as one store transaction; when a version conflict (or what `alsoConflict` says is
 * one) aborts it, runs it again, and `work` re-reads what it decides from (with the session).
 */
export async function transactionRetryingConflicts<R>(
  store: Store,
  work: (session: Session) => Promise<R>,
  alsoConflict: (error: unknown) => boolean = () => false,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.transaction(work);
    } catch (error) {
      const conflict = error instanceof VersionConflict || alsoConflict(error);
      if (!conflict || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
