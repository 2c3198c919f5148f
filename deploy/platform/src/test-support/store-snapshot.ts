import type { Doc, Store } from "@bayad/store";

/** Every document of every collection, as JSON text by "store/collection" then `_id`. */
export type StoreSnapshot = Record<string, Record<string, string>>;

export interface SnapshotOptions {
  /**
   * Collections left out, as "store/collection" ("billing/leases") or "*\/collection": those a
   * timer or a rejected request changes legitimately. Each caller says why for its own.
   */
  exclude?: readonly string[];
  /** Fields dropped from every document before comparing (such as `lastUsedAt`). */
  ignoreFields?: readonly string[];
}

/**
 * What changes in the stores while every request is refused, so that a "nothing written" check
 * leaves it out: leases (the billing clock's, the refund sweep's), which timers take and renew;
 * rate-limit counters, which count every request, refused or not; and an API key's lastUsedAt,
 * which any authenticated request may refresh.
 */
export const changedByRefusedRequests: SnapshotOptions = { exclude: ["*/leases", "*/rate_limits"], ignoreFields: ["lastUsedAt"] };

/**
 * Reads the stores of a platform (its `platform.stores`) whole, so that a test can show that a
 * run of requests wrote nothing: compare a snapshot taken before with one taken after.
 */
export async function snapshotStores(stores: Record<string, Store>, options: SnapshotOptions = {}): Promise<StoreSnapshot> {
  const exclude = new Set(options.exclude ?? []);
  const snapshot: StoreSnapshot = {};
  for (const [storeName, store] of Object.entries(stores)) {
    for (const collectionName of (await store.listCollections()).sort()) {
      const name = `${storeName}/${collectionName}`;
      if (exclude.has(name) || exclude.has(`*/${collectionName}`)) continue;
      const documents = await store.collection<Doc>({ name: collectionName }).find({}, { sort: { _id: 1 } });
      snapshot[name] = Object.fromEntries(
        documents.map((doc) => {
          const kept: Record<string, unknown> = { ...doc };
          for (const field of options.ignoreFields ?? []) delete kept[field];
          return [doc._id, JSON.stringify(kept)];
        }),
      );
    }
  }
  return snapshot;
}
