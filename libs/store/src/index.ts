export {
  DuplicateKeyError,
  StoreNotWritableError,
  StoreUnavailableError,
  isDuplicateKeyError,
  type Collection,
  type CollectionDef,
  type Doc,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type OperationOptions,
  type Durability,
  type TransactionOptions,
  type Session,
  type SortSpec,
  type Store,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from "./port.js";
export { createEmbeddedStore, type EmbeddedStoreOptions } from "./embedded/embedded-store.js";
export { backupEmbeddedStore, embeddedDataFileName } from "./embedded/backup.js";
export { createMongoStore, type MongoStoreOptions } from "./mongo/mongo-store.js";
export { MongoConfigError } from "./mongo/mongo-config-error.js";
export { defaultMongoTimeouts, longestWaitMs, resolveMongoTimeouts, type MongoTimeouts } from "./mongo/mongo-settings.js";
export { IndexConflictError } from "./mongo/ensure-indexes.js";
export { openStore, type OpenStoreOptions } from "./open-store.js";
export { createLease, type Lease } from "./lease.js";
