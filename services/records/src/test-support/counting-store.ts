import type { Store } from "@bayad/store";

/** Wraps a store to count the transactions started on it: one per projected batch, say. */
export function countingStore(inner: Store): { store: Store; transactions: () => number } {
  let transactions = 0;
  const store: Store = {
    collection: (def) => inner.collection(def),
    listCollections: () => inner.listCollections(),
    ensureIndexes: () => inner.ensureIndexes(),
    transaction: (work) => {
      transactions += 1;
      return inner.transaction(work);
    },
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { store, transactions: () => transactions };
}
