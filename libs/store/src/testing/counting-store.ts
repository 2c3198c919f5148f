import type { Store } from "../port.js";

/**
 * Wraps a store to count the transactions started on it: one per batch a consumer takes, say,
 * where the count is the promise (one commit, and one disk flush, per batch).
 */
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
