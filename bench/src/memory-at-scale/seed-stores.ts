import { join } from "node:path";
import { createEmbeddedStore, type CollectionDef, type Doc, type Store } from "@bayad/store";
import { checkoutsCollection, paymentRecordsCollection, storedCheckout } from "./stored-checkouts.js";

/**
 * Seeds stored checkouts straight into a stopped platform's DATA_DIR (the payments and records
 * stores, opened as the platform opens them), many to a transaction: a million checkouts through
 * the API would take hours on this machine, and what is measured here is what the platform holds
 * once they are stored, not how fast it stores them (scenario 2 measures that).
 */

/**
 * Checkouts per transaction. Small on purpose: the embedded store checks each staged write of a
 * unique index against every write staged before it in the transaction (StagedTable.assertUnique),
 * so a transaction of n checkouts costs n² key comparisons: 5 000 per transaction seeded ~200
 * checkouts/s, 100 per transaction ~5 000/s, where the commit's flush starts to dominate.
 */
export const checkoutsPerTransaction = 100;

export interface SeedProgress {
  seeded: number;
  seconds: number;
}

/**
 * Adds `count` checkouts of `projectId` (test mode) to the stores in `dataDir`, created one
 * millisecond apart ending now, so each is newer than anything seeded before. Returns the seconds
 * it took. `onProgress` is told after each transaction.
 */
export async function seedStoredCheckouts(
  dataDir: string,
  projectId: string,
  count: number,
  onProgress?: (progress: SeedProgress) => void,
): Promise<number> {
  const started = performance.now();
  const payments = createEmbeddedStore({ path: join(dataDir, "payments") });
  const records = createEmbeddedStore({ path: join(dataDir, "records") });
  try {
    const run = `seed${Date.now().toString(36)}`;
    const firstCreatedAt = Date.now() - count;
    for (let done = 0; done < count; ) {
      const size = Math.min(checkoutsPerTransaction, count - done);
      const batch = Array.from({ length: size }, (_, i) => storedCheckout(projectId, run, done + i, new Date(firstCreatedAt + done + i)));
      // Two stores, two transactions: each is atomic on its own, as the platform's writes are.
      await Promise.all([
        insertAll(payments, checkoutsCollection, batch.map((documents) => documents.checkout)),
        insertAll(records, paymentRecordsCollection, batch.map((documents) => documents.record)),
      ]);
      done += size;
      onProgress?.({ seeded: done, seconds: (performance.now() - started) / 1000 });
    }
  } finally {
    await Promise.all([payments.close(), records.close()]);
  }
  return (performance.now() - started) / 1000;
}

async function insertAll<T extends Doc>(store: Store, def: CollectionDef, documents: T[]): Promise<void> {
  const collection = store.collection<T>(def);
  await store.transaction(async (session) => {
    for (const document of documents) await collection.insertOne(document, { session });
  });
}
