import type { Collection, CollectionDef, Doc, Store } from "../port.js";

/**
 * Wraps a store so that its next `failures.remaining` writes fail as an outage would, then
 * behave normally: for proving that a consumer whose write failed does not acknowledge. With
 * `failures.after`, that many writes succeed first (counted down), so a failure can strike in the
 * middle of a transaction.
 */
export function flakyStore(inner: Store, failures: { remaining: number; after?: number }): Store {
  const failOnce = () => {
    if (failures.remaining <= 0) return;
    if (failures.after !== undefined && failures.after > 0) {
      failures.after -= 1;
      return;
    }
    failures.remaining -= 1;
    throw new Error("store unavailable (injected)");
  };
  return {
    collection: <T extends Doc>(def: CollectionDef): Collection<T> => {
      const collection = inner.collection<T>(def);
      return {
        name: collection.name,
        insertOne: async (...args) => (failOnce(), collection.insertOne(...args)),
        updateOne: async (...args) => (failOnce(), collection.updateOne(...args)),
        findOneAndUpdate: async (...args) => (failOnce(), collection.findOneAndUpdate(...args)),
        findOne: (...args) => collection.findOne(...args),
        find: (...args) => collection.find(...args),
        count: (...args) => collection.count(...args),
        deleteOne: (...args) => collection.deleteOne(...args),
        deleteMany: (...args) => collection.deleteMany(...args),
      };
    },
    ensureIndexes: () => inner.ensureIndexes(),
    transaction: (work, options) => inner.transaction(work, options),
    flush: () => inner.flush(),
    ping: () => inner.ping(),
    listCollections: () => inner.listCollections(),
    close: () => inner.close(),
  };
}
