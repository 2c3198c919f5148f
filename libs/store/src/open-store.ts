import { createEmbeddedStore } from "./embedded/embedded-store.js";
import { createMongoStore } from "./mongo/mongo-store.js";
import type { MongoTimeouts } from "./mongo/mongo-settings.js";
import type { Store } from "./port.js";

export interface OpenStoreOptions {
  /** When set, the MongoDB store; otherwise the embedded in-process one. */
  mongodbUri?: string;
  /** The MongoDB store's timeouts, over `defaultMongoTimeouts`. */
  mongoTimeouts?: Partial<MongoTimeouts>;
  database: string;
  /** The embedded store's directory (DATA_DIR); without it, a temporary one removed at close. */
  dataDir?: string;
}

/**
 * Opens the store a process runs on. The MongoDB store is pinged first (a writable primary and a
 * majority write) so that an unreachable or wrong URI stops the process at start rather than at
 * its first request; a standalone server throws MongoConfigError("MONGODB_URI", …). Its indexes
 * are left to the caller's `ensureIndexes`, once every collection has been declared.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.mongodbUri === undefined) return createEmbeddedStore(options.dataDir === undefined ? {} : { path: options.dataDir });
  const store = createMongoStore({ uri: options.mongodbUri, database: options.database, timeouts: options.mongoTimeouts ?? {} });
  try {
    await store.ping();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
