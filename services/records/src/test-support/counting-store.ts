import type { Store } from "@bayad/store";

/** Wraps a store to count the transactions started on it: one per projected batch, say. */
export function countingStore(inner: Store): { store: Store; transactions: () => number } {
  let transactions = 0;
  const store: Store = {
    collection: (def) => inner.collection(def),
    listCollections: () => inner.listCollections(),
    ensureIndexes: () => inner.ensureIndexes(),
    transaction: (work, options) => {
      transactions += 1;
      return inner.transaction(work, options);
    },
    flush: () => inner.flush(),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { store, transactions: () => transactions };
}
