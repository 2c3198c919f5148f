/**
 * The document-store port. Every service and the gateway persist through this interface only;
 * two adapters implement it (MongoDB for production, embedded in-process for `npm start` and
 * tests) and one contract suite (./test-support/store-contract.ts) pins that both behave the same.
 *
 * The query and update language is a deliberately small subset of MongoDB's, so the MongoDB
 * adapter stays a thin pass-through and the embedded adapter stays small.
 *
 * Isolation: what a transaction may rely on about others running beside it is SNAPSHOT isolation
 * (MongoDB's), not serializability, although the embedded store gives the latter (it runs one
 * transaction at a time):
 *
 * - Its reads (with the session) see one snapshot: what was committed when it began, plus its own
 *   writes. Nothing committed meanwhile shows.
 * - Two transactions conflict (one is rerun, or fails) only when both WRITE the same document.
 *   Reading a document another writes is no conflict: a transaction that reads A and writes B can
 *   commit beside one that reads B and writes A, each deciding from a state the other's commit
 *   changed (write skew), an outcome no serial order gives.
 * - The cure: make transactions whose decisions depend on each other write one common document,
 *   typically a version-guarded write of the record the decision was read from,
 *   `updateOne({ _id, version }, { $inc: { version: 1 } })`; where it matches nothing, the version
 *   moved since it was read, and the caller treats that as a conflict (aborts and decides again).
 *   The contract's write-skew case (test-support/isolation-contract.ts) holds both adapters to it.
 *
 * Since a conflict reruns it, a transaction's `work` may run more than once (Store.transaction).
 */

/** Every stored document has a string `_id`. Values are JSON-like plus Date. */
export interface Doc {
  _id: string;
}

/**
 * A filter. Field paths may be dotted ("amount.currency"). Per field: a plain value (equality;
 * `null` also matches a missing field) or an operator object using $eq $ne $gt $gte $lt $lte
 * $in $nin $exists. Top level may also hold $and / $or (arrays of filters).
 */
export type Filter = Record<string, unknown>;

/** Updates: $set, $unset, $inc and (with upsert) $setOnInsert. Paths may be dotted. */
export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, true>;
  $inc?: Record<string, number>;
  $setOnInsert?: Record<string, unknown>;
}

export type SortSpec = Record<string, 1 | -1>;

export interface IndexSpec {
  /** Stable name; the MongoDB adapter creates it with this name. */
  name: string;
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /**
   * Only documents matching this filter are indexed (MongoDB partialFilterExpression). Limited
   * to equality and {$exists: true} on fields.
   */
  partial?: Filter;
  /** TTL on a Date field (single-key index): documents are removed some time after it passes. */
  expireAfterSeconds?: number;
}

export interface CollectionDef {
  name: string;
  indexes?: IndexSpec[];
  /**
   * Names of indexes this collection once had and must not keep: `ensureIndexes` drops them where
   * they exist (a deployed MongoDB keeps an index until it is dropped), and only once every
   * declared index is built. A changed index gets a new name, never its old one (the MongoDB store
   * refuses to start rather than rebuild a live index in place); its old name goes here in a later
   * release, once no process of the release that declared it runs (libs/store/README.md).
   */
  retiredIndexes?: string[];
}

/** A transaction's handle, passed as `{ session }` to every operation that belongs to it. */
export interface Session {
  readonly id: string;
}

/**
 * When a write's promise resolves, relative to the disk. What callers may rely on:
 *
 * - `"flushed"` (the default): the write would survive an operating-system crash or a power loss.
 *   Embedded: its commit is flushed to disk (one fdatasync shared by every commit made while the
 *   previous one ran: group commit). MongoDB: its write concern is satisfied.
 * - `"deferred"`: the write is committed (atomic, visible to every reader at once) and survives
 *   the process being killed (SIGKILL), but reaches the disk only with the store's next flush:
 *   the next `"flushed"` write's, or a flush the store makes by itself soon after (embedded:
 *   within `deferredFlushMs`). An operating-system crash or a power loss before then may lose it,
 *   with whatever the same store committed after it, never a part of it. For writes whose loss
 *   another durable record reconciles (the gateway's idempotency records: the services' own keys
 *   answer a retry; the first write of a create whose next write is flushed; the outbox's deletes)
 *   or is harmless (the gateway's rate-limit counts: a client may get a little over its limit once;
 *   an API key's last-use mark). MongoDB: the same as `"flushed"`.
 *
 * A write made with a transaction's session takes the transaction's durability.
 */
export type Durability = "flushed" | "deferred";

export interface OperationOptions {
  session?: Session;
  /** Default "flushed"; ignored with a session (see Durability). */
  durability?: Durability;
}

export interface TransactionOptions {
  /** Default "flushed" (see Durability). */
  durability?: Durability;
}

export interface FindOptions extends OperationOptions {
  sort?: SortSpec;
  limit?: number;
  skip?: number;
}

export interface UpdateOptions extends OperationOptions {
  upsert?: boolean;
}

export interface FindOneAndUpdateOptions extends UpdateOptions {
  /** Default "after". */
  returnDocument?: "before" | "after";
  /** Which document to pick when several match. */
  sort?: SortSpec;
}

export interface UpdateResult {
  matched: number;
  modified: number;
  /** The `_id` of the inserted document when an upsert inserted one. */
  upsertedId?: string;
}

export interface Collection<T extends Doc> {
  readonly name: string;
  /** Throws DuplicateKeyError when `_id` or a unique index is taken. */
  insertOne(doc: T, options?: OperationOptions): Promise<void>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter, options?: OperationOptions): Promise<number>;
  /** Updates the first match. Throws DuplicateKeyError when the result breaks a unique index. */
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /** Atomic: the document is matched and updated in one step (the basis of leases and claims). */
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter, options?: OperationOptions): Promise<number>;
  deleteMany(filter: Filter, options?: OperationOptions): Promise<number>;
}

export interface Store {
  /** A handle on a collection; its indexes are created by `ensureIndexes`. */
  collection<T extends Doc>(def: CollectionDef): Collection<T>;
  /** The names of the collections that exist: written to, or given indexes by `ensureIndexes`. */
  listCollections(): Promise<string[]>;
  /** Creates the indexes of every collection obtained so far (idempotent). */
  ensureIndexes(): Promise<void>;
  /**
   * Runs `work` as one atomic unit: its writes (made with `{ session }`) become visible together
   * when it resolves, or not at all when it throws (the error is rethrown). Reads with the
   * session see a snapshot with the transaction's own writes; concurrent transactions are
   * isolated as the top of this file says (snapshot isolation: write skew is possible unless both
   * write a common document). `work` may run more than once (MongoDB reruns it on a transient
   * error such as a write conflict) and only the last run's writes commit, so it must have no
   * effect outside the store that a run repeats or that assumes the run commits: nothing pushed,
   * counted, emitted, sent or called elsewhere from inside it; what it decides from is read again
   * through the session; what it returns comes from its last run. It resolves once its writes are as
   * durable as `options.durability` says.
   */
  transaction<R>(work: (session: Session) => Promise<R>, options?: TransactionOptions): Promise<R>;
  /**
   * Resolves once every write this store committed before the call is as durable as a
   * `"flushed"` write (a barrier for deferred writes: what is published or answered about them
   * next survives an operating-system crash with them). MongoDB: at once.
   */
  flush(): Promise<void>;
  /** Resolves when the store answers and can write; rejects otherwise (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A write broke `_id` uniqueness or a unique index. It is an answer that callers expect and
 * catch (an idempotency key already claimed, a record already projected), so it captures no
 * stack trace: capturing one is a noticeable share of what a whole idempotent replay costs the
 * gateway (bench/README.md). The message names the index; the MongoDB adapter keeps the
 * driver's error as its cause.
 */
export class DuplicateKeyError extends Error {
  constructor(
    /** The index name, or "_id_" for the primary key. */
    readonly index: string,
    options?: { cause?: unknown },
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`duplicate key for index ${index}`, options);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = "DuplicateKeyError";
  }
}

/**
 * The store cannot be reached (closed, network down, no server selectable). Services answer it as
 * 503 SERVICE_UNAVAILABLE rather than as an internal fault.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailableError";
  }
}

/**
 * The store is up and reads go on, but it cannot write: its disk is full or read-only, or a flush
 * failed. A write refused with it stored nothing; one whose flush failed is visible but was never
 * acknowledged (see lmdb-environment.ts). Services answer 503 STORE_UNAVAILABLE, and `ping()`
 * fails (readiness turns not-ready) until the store can write again, which it notices by itself.
 */
export class StoreNotWritableError extends StoreUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreNotWritableError";
  }
}

export function isDuplicateKeyError(error: unknown, index?: string): error is DuplicateKeyError {
  return error instanceof DuplicateKeyError && (index === undefined || error.index === index);
}
