import { createEmbeddedStore } from "./embedded/embedded-store.js";
import { createMongoStore } from "./mongo/mongo-store.js";
import type { Store } from "./port.js";

export interface OpenStoreOptions {
  /** When set, the MongoDB store; otherwise the embedded in-process one. */
  mongodbUri?: string;
  database: string;
  /** The embedded store's directory (DATA_DIR); without it, a temporary one removed at close. */
  dataDir?: string;
}

/**
 * Opens the store a process runs on. The MongoDB store is pinged first so that an unreachable or
 * wrong URI stops the process at start rather than at its first request; its indexes are left to
 * the caller's `ensureIndexes`, once every collection has been declared.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.mongodbUri === undefined) return createEmbeddedStore(options.dataDir === undefined ? {} : { path: options.dataDir });
  const store = createMongoStore({ uri: options.mongodbUri, database: options.database });
  try {
    await store.ping();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
