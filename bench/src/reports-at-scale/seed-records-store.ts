import { join } from "node:path";
import { createEmbeddedStore } from "@bayad/store";
import { paymentRecordsCollection } from "@bayad/records-service";
import { addRecord, manilaDay, seededRecords, zeroTotals, type SeededRecord, type Totals } from "./seeded-records.js";

/** Records per transaction: payment_records has no unique index but _id's, so a larger batch stays cheap. */
const recordsPerTransaction = 500;

export interface SeededRecords {
  count: number;
  seconds: number;
  /** The expected totals of each Philippine day, computed while seeding. */
  byDay: Map<string, Totals>;
  /** The id of the record carrying the needle's metadata. */
  needleId: string;
}

/**
 * Writes `count` records of `projectId` straight into the stopped platform's records store in
 * `dataDir` (as the projection stores them), created evenly over the `days` days before `now`,
 * and totals them per day by the definition's second writing (seeded-records.ts).
 */
export async function seedRecordsStore(dataDir: string, projectId: string, count: number, days: number, now: Date, onProgress?: (seeded: number) => void): Promise<SeededRecords> {
  const started = performance.now();
  const store = createEmbeddedStore({ path: join(dataDir, "records") });
  const records = store.collection<SeededRecord>(paymentRecordsCollection);
  const byDay = new Map<string, Totals>();
  const needleIndex = Math.floor(count / 3);
  let needleId = "";
  try {
    await store.ensureIndexes();
    const first = new Date(now.getTime() - days * 86_400_000);
    const last = new Date(now.getTime() - 60_000);
    let batch: SeededRecord[] = [];
    let seeded = 0;
    const write = async () => {
      const documents = batch;
      batch = [];
      await store.transaction(async (session) => {
        for (const document of documents) await records.insertOne(document, { session });
      });
      seeded += documents.length;
      onProgress?.(seeded);
    };
    let index = 0;
    for (const record of seededRecords(projectId, count, first, last, needleIndex)) {
      if (index === needleIndex) needleId = record._id;
      index += 1;
      const day = manilaDay(record.createdAt);
      let totals = byDay.get(day);
      if (totals === undefined) byDay.set(day, (totals = zeroTotals()));
      addRecord(totals, record);
      batch.push(record);
      if (batch.length === recordsPerTransaction) await write();
    }
    if (batch.length > 0) await write();
  } finally {
    await store.close();
  }
  return { count, seconds: (performance.now() - started) / 1000, byDay, needleId };
}
