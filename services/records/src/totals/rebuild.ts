import { AppError, isEnvironment, type Environment } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { ProjectedRecord } from "../records/payment-record.js";
import { createPaymentRecordsRepository, type FeedPosition } from "../records/payment-records-repository.js";
import { contribution } from "./contribution.js";
import { counterNames, totalsIdOf, wholeDayKeyOf, type PaymentTotalsDoc } from "./totals-collection.js";
import { createPaymentTotalsRepository } from "./totals-repository.js";

/** Records read per page of the walk. */
const REBUILD_PAGE_SIZE = 500;

export interface RebuildInput {
  projectId: string;
  /** "test" or "live"; empty text: both. */
  environment: string;
}

export interface RebuildResult {
  recordsRead: number;
  totalsWritten: number;
}

/** The totals documents that a set of records add up to: what the projection keeps, computed afresh. */
export function totalsOf(records: Iterable<ProjectedRecord>): Map<string, PaymentTotalsDoc> {
  const docs = new Map<string, PaymentTotalsDoc>();
  for (const record of records) addRecord(docs, record);
  return docs;
}

function addRecord(docs: Map<string, PaymentTotalsDoc>, record: ProjectedRecord): void {
  const counted = contribution(record);
  if (counted === null) return;
  // Its split document and its day's whole-day document, as the projection keeps them.
  for (const wholeDay of [false, true]) {
    const _id = totalsIdOf(counted.key, wholeDay);
    const doc = docs.get(_id);
    if (doc === undefined) docs.set(_id, { _id, ...(wholeDay ? wholeDayKeyOf(counted.key) : counted.key), ...counted.counters, wholeDay });
    else for (const name of counterNames) doc[name] += counted.counters[name];
  }
}

/**
 * Recomputes a project's totals from its records (operators: `records rebuild-totals`, after a
 * fix to how records count, or to repair drift). The records are walked page by page with the
 * feed's keyset pagination outside any transaction (a transaction over a whole project would
 * hold the embedded store's writer, and outlive MongoDB's transaction time limit), summing
 * contributions in memory: the map holds one entry per day × method × account, not per record.
 * Then one transaction deletes the scope's documents and inserts the recomputed ones.
 *
 * A projection running meanwhile: one committed after the replacing transaction adds its change
 * to the new documents (the walk read the record before it changed), which is exact; one that
 * conflicts with it (both write a totals document: port.ts's snapshot isolation) is rerun after
 * it, also exact. One committed while the walk runs, on a record the walk had already read, is
 * lost: its change went to documents the replace then deletes, and the walk counted the record
 * as it was. A rebuild is therefore exact for what was projected before it started, and is run
 * again (or with the feed quiet) if the project took payments during it.
 */
export async function rebuildPaymentTotals(store: Store, input: RebuildInput): Promise<RebuildResult> {
  const problems: string[] = [];
  if (input.projectId === "") problems.push("projectId: is required");
  if (input.environment !== "" && !isEnvironment(input.environment)) problems.push("environment: must be test or live");
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  const environments: Environment[] = input.environment === "" ? ["test", "live"] : [input.environment as Environment];

  const records = createPaymentRecordsRepository(store);
  const docs = new Map<string, PaymentTotalsDoc>();
  let recordsRead = 0;
  for (const environment of environments) {
    let after: FeedPosition | undefined;
    for (;;) {
      const page = await records.findPage({ projectId: input.projectId, environment }, { limit: REBUILD_PAGE_SIZE, ...(after ? { after } : {}) });
      for (const record of page) addRecord(docs, record);
      recordsRead += page.length;
      const last = page[page.length - 1];
      if (page.length < REBUILD_PAGE_SIZE || last === undefined) break;
      after = { createdAt: last.createdAt, id: last._id };
    }
  }
  await store.transaction((session) => createPaymentTotalsRepository(store, session).replaceScope(input.projectId, environments, [...docs.values()]));
  return { recordsRead, totalsWritten: docs.size };
}
