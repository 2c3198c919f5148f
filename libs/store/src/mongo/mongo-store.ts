import { randomUUID } from "node:crypto";
import { MongoClient, ObjectId, type ClientSession, type Collection as MongoCollection, type Document, type IndexDescription } from "mongodb";
import type {
  Collection,
  CollectionDef,
  Doc,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  OperationOptions,
  Session,
  Store,
  Update,
  UpdateOptions,
} from "../port.js";
import { StoreUnavailableError } from "../port.js";
import { toStoreError } from "./store-errors.js";

type StoredDoc = Doc & Document;

export interface MongoStoreOptions {
  /** A MongoDB connection string; see `transaction` for why it must reach a replica set. */
  uri: string;
  database: string;
}

/**
 * The production store, on the official driver. Filters, updates and sorts pass straight through:
 * the port's language is a subset of MongoDB's. Writes wait for a majority and reads see only
 * majority-committed data, so nothing a caller saw can be rolled back by a failover. Undefined
 * fields are dropped rather than stored as null, matching the embedded store.
 *
 * `transaction` needs a replica set (a single-node one is enough): a standalone server rejects
 * transactions.
 *
 * The client connects on first use; `openStore` pings it so a bad URI fails at start.
 */
export function createMongoStore(options: MongoStoreOptions): Store {
  const client = new MongoClient(options.uri, {
    writeConcern: { w: "majority" },
    readConcern: { level: "majority" },
    ignoreUndefined: true,
  });
  const db = client.db(options.database);
  const declared = new Map<string, Map<string, IndexSpec>>();
  const retired = new Map<string, Set<string>>();
  const driverSessions = new WeakMap<Session, ClientSession>();
  let closed = false;

  /** Runs a driver call on behalf of the port: refuses after close, maps errors to the port's. */
  async function call<R>(operation: () => Promise<R>, options?: OperationOptions): Promise<R> {
    if (closed) throw new StoreUnavailableError("The MongoDB store is closed");
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error, options?.session !== undefined);
    }
  }

  /**
   * The port's options with the port session swapped for the driver session behind it. Every
   * write waits for the client's write concern, so a "deferred" durability changes nothing here.
   */
  function driverOptions<O extends OperationOptions>(
    options: O | undefined,
  ): Omit<O, "session" | "durability"> & { session?: ClientSession } {
    const { session, durability: _durability, ...rest } = options ?? ({} as O);
    if (session === undefined) return rest;
    const clientSession = driverSessions.get(session);
    if (clientSession === undefined) throw new Error(`Session ${session.id} is not a transaction of this store`);
    return { ...rest, session: clientSession };
  }

  function collection<T extends Doc>(def: CollectionDef): Collection<T> {
    const indexes = declared.get(def.name) ?? new Map<string, IndexSpec>();
    for (const index of def.indexes ?? []) indexes.set(index.name, index);
    declared.set(def.name, indexes);
    const retiredNames = retired.get(def.name) ?? new Set<string>();
    for (const name of def.retiredIndexes ?? []) retiredNames.add(name);
    retired.set(def.name, retiredNames);
    const driver = db.collection<StoredDoc>(def.name);
    return {
      name: def.name,
      insertOne: (doc: T, options?: OperationOptions) =>
        call(async () => {
          await driver.insertOne(doc, driverOptions(options));
        }, options),
      findOne: (filter: Filter, options?: FindOptions) =>
        call(async () => (await driver.findOne(filter, driverOptions(options))) as T | null, options),
      find: (filter: Filter, options?: FindOptions) =>
        call(async () => (await driver.find(filter, driverOptions(options)).toArray()) as T[], options),
      count: (filter: Filter, options?: OperationOptions) =>
        call(() => driver.countDocuments(filter, driverOptions(options)), options),
      updateOne: (filter: Filter, update: Update, options?: UpdateOptions) =>
        call(async () => {
          const withId = withStringId(filter, update, options?.upsert);
          const result = await driver.updateOne(filter, withId, driverOptions(options));
          const counts = { matched: result.matchedCount, modified: result.modifiedCount };
          return result.upsertedId === null ? counts : { ...counts, upsertedId: String(result.upsertedId) };
        }, options),
      findOneAndUpdate: (filter: Filter, update: Update, options?: FindOneAndUpdateOptions) =>
        call(async () => {
          const found = await driver.findOneAndUpdate(filter, withStringId(filter, update, options?.upsert), {
            ...driverOptions(options),
            returnDocument: options?.returnDocument ?? "after",
            includeResultMetadata: false,
          });
          return found as T | null;
        }, options),
      deleteOne: (filter: Filter, options?: OperationOptions) =>
        call(async () => (await driver.deleteOne(filter, driverOptions(options))).deletedCount, options),
      deleteMany: (filter: Filter, options?: OperationOptions) =>
        call(async () => (await driver.deleteMany(filter, driverOptions(options))).deletedCount, options),
    };
  }

  return {
    collection,

    listCollections: () =>
      call(async () => (await db.listCollections({}, { nameOnly: true }).toArray()).map((info) => info.name)),

    ensureIndexes: () =>
      call(async () => {
        for (const [name, names] of retired) {
          for (const index of names) await dropIndexIfPresent(db.collection(name), index);
        }
        for (const [name, indexes] of declared) {
          if (indexes.size > 0) await createDeclaredIndexes(db.collection(name), [...indexes.values()]);
        }
      }),

    /**
     * Runs `work` in a MongoDB transaction; the driver reruns it on transient errors (write
     * conflicts, failovers). Requires a replica set. It commits under the client's write concern
     * whatever durability is asked for.
     */
    transaction: <R>(work: (session: Session) => Promise<R>) =>
      call(() =>
        client.withSession((clientSession) => {
          const session: Session = Object.freeze({ id: randomUUID() });
          driverSessions.set(session, clientSession);
          return clientSession.withTransaction(() => work(session));
        }),
      ),

    // Every write already waited for the write concern: nothing is pending.
    flush: async () => undefined,

    ping: () =>
      call(async () => {
        await db.command({ ping: 1 });
      }),

    async close() {
      closed = true;
      await client.close();
    },
  };
}

/** The server's codes for an index that exists under the name with other keys or options. */
const INDEX_CHANGED = new Set<unknown>([85 /* IndexOptionsConflict */, 86 /* IndexKeySpecsConflict */]);
const INDEX_NOT_FOUND = 27;
const NAMESPACE_NOT_FOUND = 26;

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function dropIndexIfPresent(collection: MongoCollection, name: string): Promise<void> {
  try {
    await collection.dropIndex(name);
  } catch (error) {
    if (codeOf(error) !== INDEX_NOT_FOUND && codeOf(error) !== NAMESPACE_NOT_FOUND) throw error;
  }
}

/**
 * Creates the declared indexes. One that exists under its name with other keys or options (a
 * declaration changed in code) is dropped and built again as declared: the code is the truth.
 */
async function createDeclaredIndexes(collection: MongoCollection, specs: IndexSpec[]): Promise<void> {
  try {
    await collection.createIndexes(specs.map(toIndexDescription));
    return;
  } catch (error) {
    if (!INDEX_CHANGED.has(codeOf(error))) throw error;
  }
  for (const spec of specs) {
    try {
      await collection.createIndexes([toIndexDescription(spec)]);
    } catch (error) {
      if (!INDEX_CHANGED.has(codeOf(error))) throw error;
      await dropIndexIfPresent(collection, spec.name);
      await collection.createIndexes([toIndexDescription(spec)]);
    }
  }
}

function toIndexDescription(index: IndexSpec): IndexDescription {
  return {
    name: index.name,
    key: index.keys,
    ...(index.unique === undefined ? {} : { unique: index.unique }),
    ...(index.partial === undefined ? {} : { partialFilterExpression: index.partial }),
    ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
  };
}

/**
 * Left alone, an upsert whose filter does not fix `_id` makes the server generate an ObjectId, and
 * the port promises string ids; so such upserts get a string `_id` in ObjectId form instead.
 */
function withStringId(filter: Filter, update: Update, upsert: boolean | undefined): Update {
  const updateSetsId = update.$set?._id !== undefined || update.$setOnInsert?._id !== undefined;
  if (!upsert || updateSetsId || pinsId(filter)) return update;
  return { ...update, $setOnInsert: { ...update.$setOnInsert, _id: new ObjectId().toHexString() } };
}

/** Whether an upsert's inserted document takes its `_id` from the filter (an equality on `_id`). */
function pinsId(filter: Filter): boolean {
  const condition: unknown = filter._id;
  if (condition !== undefined) {
    const operators = typeof condition === "object" && condition !== null ? Object.keys(condition) : [];
    if (!operators.some((key) => key.startsWith("$")) || operators.includes("$eq")) return true;
  }
  return Array.isArray(filter.$and) && filter.$and.some((part: Filter) => pinsId(part));
}
