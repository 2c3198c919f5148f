import type { ProjectedRecord } from "./payment-record.js";
import type { PaymentRecordsRepository } from "./payment-records-repository.js";

export interface ProjectionDeps {
  repository: PaymentRecordsRepository;
  now: () => Date;
}

/** What projecting one event did: "unchanged" for a redelivered, equal or older version. */
export type ProjectionOutcome = "inserted" | "replaced" | "unchanged";

/**
 * Writes what an event says about a record, idempotent and order-tolerant: the bus delivers at
 * least once and in no guaranteed order across resources or redeliveries, so a record only ever
 * moves to a higher aggregate version. Each step is one atomic store operation; resolving means
 * the write (if any) is done, so the caller may acknowledge.
 */
export async function projectRecord(deps: ProjectionDeps, record: ProjectedRecord): Promise<ProjectionOutcome> {
  const now = deps.now();
  // A first version is new unless delivered again: insert it (one write). A stored record is at
  // this version or newer, so there is nothing to replace.
  if (record.aggregateVersion === 1) return (await deps.repository.insertIfAbsent(record, now)) ? "inserted" : "unchanged";
  // Later versions most likely update a record that exists: try the conditional replace first.
  if (await deps.repository.replaceIfOlder(record, now)) return "replaced";
  if (await deps.repository.insertIfAbsent(record, now)) return "inserted";
  // The record exists: either it was already at this version or newer, or a concurrent insert
  // won the race since the first step. Records are never deleted, so deciding once more against
  // what is stored now is final.
  return (await deps.repository.replaceIfOlder(record, now)) ? "replaced" : "unchanged";
}
