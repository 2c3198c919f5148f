import type { Doc, Store } from "@bayad/store";

/**
 * How many documents one delete takes. The embedded store keeps a write transaction's dirty pages
 * in malloc'd memory until it commits, and the C library keeps most of it afterwards: deleting a
 * soak's hundreds of thousands of documents in one transaction left ~270 MiB of anonymous memory
 * behind (measured), which the soak's reading then counted as the platform's own growth. Batches
 * bound it, as an operator's clean-up would.
 */
const DELETE_BATCH = 1000;

/**
 * Deletes every document of collection `name`, DELETE_BATCH to a transaction, each by its `_id`
 * (a lookup; a filter on many ids would scan the collection once per batch); returns how many went.
 */
export async function emptyCollection(store: Store, name: string): Promise<number> {
  const collection = store.collection<Doc>({ name });
  let deleted = 0;
  for (;;) {
    const batch = await collection.find({}, { limit: DELETE_BATCH });
    if (batch.length === 0) return deleted;
    deleted += await store.transaction(async (session) => {
      let count = 0;
      for (const doc of batch) count += await collection.deleteOne({ _id: doc._id }, { session });
      return count;
    });
  }
}
