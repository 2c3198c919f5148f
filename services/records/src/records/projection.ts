import type { Session, Store } from "@bayad/store";
import { contribution, type Contribution } from "../totals/contribution.js";
import { counterNames, isZero, totalsIdOf, zeroCounters, type TotalsCounters } from "../totals/totals-collection.js";
import { createPaymentTotalsRepository, type PaymentTotalsRepository } from "../totals/totals-repository.js";
import type { ProjectedRecord } from "./payment-record.js";
import { createPaymentRecordsRepository, type PaymentRecordsRepository } from "./payment-records-repository.js";

/** The repositories of one store transaction: a record and its totals are written together or not at all. */
export interface ProjectionDeps {
  records: PaymentRecordsRepository;
  totals: PaymentTotalsRepository;
  now: () => Date;
}

/** The projection's repositories bound to `session`. */
export function projectionIn(store: Store, session: Session, now: () => Date): ProjectionDeps {
  return { records: createPaymentRecordsRepository(store, session), totals: createPaymentTotalsRepository(store, session), now };
}

/** Projects one record in a transaction of its own (outside a consumer's batch). */
export function projectInTransaction(store: Store, now: () => Date, record: ProjectedRecord): Promise<ProjectionOutcome> {
  return store.transaction((session) => projectRecord(projectionIn(store, session, now), record));
}

/** What projecting one event did: "unchanged" for a redelivered, equal or older version. */
export type ProjectionOutcome = "inserted" | "replaced" | "unchanged";

/**
 * Writes what an event says about a record, and moves its contribution to the totals, in the
 * transaction `deps` belong to. Idempotent and order-tolerant: the bus delivers at least once and
 * in no guaranteed order across resources or redeliveries, so a record only ever moves to a
 * higher aggregate version, and only a write of the record changes the totals (by what the
 * record counted before and counts now). Resolving means the writes are made in the transaction.
 *
 * Two transactions projecting the same record both write its document, so the store lets only
 * one of them commit on what it read (the other reruns: port.ts's snapshot isolation); the
 * totals can therefore never take a record's change twice or miss one.
 */
export async function projectRecord(deps: ProjectionDeps, record: ProjectedRecord): Promise<ProjectionOutcome> {
  const now = deps.now();
  const stored = await deps.records.findById(record._id);
  if (stored === null) {
    // Absent in this transaction's snapshot and its own writes, so the insert takes place.
    await deps.records.insert(record, now);
    await moveTotals(deps.totals, null, contribution(record));
    return "inserted";
  }
  if (stored.aggregateVersion >= record.aggregateVersion) return "unchanged";
  // The record as written, not as rebuilt here: the totals count exactly what the repository wrote.
  const replaced = await deps.records.replaceIfOlder(record, now);
  if (replaced === null) return "unchanged";
  await moveTotals(deps.totals, contribution(stored), contribution(replaced));
  return "replaced";
}

/** Takes a record's old contribution out of the totals and puts its new one in. */
async function moveTotals(totals: PaymentTotalsRepository, before: Contribution | null, after: Contribution | null): Promise<void> {
  if (before !== null && after !== null && totalsIdOf(before.key) === totalsIdOf(after.key)) {
    const difference = differenceOf(after.counters, before.counters);
    if (!isZero(difference)) await totals.add(after.key, difference);
    return;
  }
  if (before !== null) await totals.add(before.key, differenceOf(zeroCounters(), before.counters));
  if (after !== null) await totals.add(after.key, after.counters);
}

function differenceOf(a: TotalsCounters, b: TotalsCounters): TotalsCounters {
  const difference = { ...a };
  for (const name of counterNames) difference[name] = a[name] - b[name];
  return difference;
}
