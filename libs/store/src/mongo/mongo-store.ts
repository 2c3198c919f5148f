import { randomUUID } from "node:crypto";
import { MongoClient, type ClientSession, type MongoClientOptions } from "mongodb";
import type { CollectionDef, Doc, OperationOptions, Session, Store } from "../port.js";
import { StoreUnavailableError } from "../port.js";
import { runBoundedTransaction, transactionDeadline, transactionTimedOut, type TransactionDeadline } from "./bounded-transaction.js";
import { ensureDeclaredIndexes, type DeclaredIndexes } from "./ensure-indexes.js";
import { createMongoCollection, type StoredDoc } from "./mongo-collection.js";
import { resolveMongoTimeouts, type MongoTimeouts } from "./mongo-settings.js";
import { proveWritable } from "./readiness.js";
import { toStoreError } from "./store-errors.js";

export interface MongoStoreOptions {
  /** A MongoDB connection string: a replica set (a single-node one is enough) or mongos. */
  uri: string;
  database: string;
  /** Overrides of `defaultMongoTimeouts`, validated by `resolveMongoTimeouts` (which throws MongoConfigError). */
  timeouts?: Partial<MongoTimeouts>;
}

interface OpenTransaction {
  clientSession: ClientSession;
  deadline: TransactionDeadline;
}

/**
 * The production store, on the official driver. Writes wait for a majority and reads see only
 * majority-committed data, so nothing a caller saw can be rolled back by a failover. Undefined
 * fields are dropped rather than stored as null, matching the embedded store. Every wait is
 * bounded (`MongoTimeouts`), and a deployment that cannot serve answers StoreUnavailableError.
 *
 * Transactions need a replica set or mongos: `ping` (which `openStore` runs at start) refuses a
 * standalone server with a MongoConfigError naming MONGODB_URI.
 */
export function createMongoStore(options: MongoStoreOptions): Store {
  const timeouts = resolveMongoTimeouts(options.timeouts);
  const clientOptions = {
    writeConcern: { w: "majority", wtimeoutMS: timeouts.operationTimeoutMs },
    readConcern: { level: "majority" },
    ignoreUndefined: true,
    serverSelectionTimeoutMS: timeouts.serverSelectionTimeoutMs,
    connectTimeoutMS: timeouts.connectTimeoutMs,
    socketTimeoutMS: timeouts.socketTimeoutMs,
    // A pool exhausted by a slow server is waited on no longer than a server is searched for.
    waitQueueTimeoutMS: timeouts.serverSelectionTimeoutMs,
  } as const satisfies MongoClientOptions;
  const client = new MongoClient(options.uri, clientOptions);
  const db = client.db(options.database);
  const declared = new Map<string, DeclaredIndexes>();
  const transactions = new WeakMap<Session, OpenTransaction>();
  let closed = false;

  async function call<R>(operation: () => Promise<R>, operationOptions?: OperationOptions): Promise<R> {
    if (closed) throw new StoreUnavailableError("The MongoDB store is closed");
    try {
      return await operation();
    } catch (error) {
      throw toStoreError(error, operationOptions?.session !== undefined);
    }
  }

  function driverOptions<O extends OperationOptions>(
    operationOptions: O | undefined,
    kind: "read" | "write",
  ): Omit<O, "session" | "durability"> & { session?: ClientSession; maxTimeMS?: number } {
    const { session, durability: _durability, ...rest } = operationOptions ?? ({} as O);
    if (session === undefined) return kind === "read" ? { ...rest, maxTimeMS: timeouts.operationTimeoutMs } : rest;
    const open = transactions.get(session);
    if (open === undefined) throw new Error(`Session ${session.id} is not a transaction of this store`);
    // Nothing starts past the transaction's deadline; the runner gives up with this error.
    if (performance.now() >= open.deadline.at) throw transactionTimedOut(open.deadline, undefined);
    return { ...rest, session: open.clientSession };
  }

  function collection<T extends Doc>(def: CollectionDef) {
    const declaration = declared.get(def.name) ?? { indexes: new Map(), retired: new Set<string>() };
    for (const index of def.indexes ?? []) declaration.indexes.set(index.name, index);
    for (const name of def.retiredIndexes ?? []) declaration.retired.add(name);
    declared.set(def.name, declaration);
    return createMongoCollection<T>(def.name, db.collection<StoredDoc>(def.name), { call, driverOptions });
  }

  return {
    collection,

    listCollections: () =>
      call(async () => (await db.listCollections({}, { nameOnly: true, maxTimeMS: timeouts.operationTimeoutMs }).toArray()).map((info) => info.name)),

    /**
     * On a client of its own without the socket timeout: building an index on a large collection
     * keeps its connection silent for as long as the build takes, which is a start-time wait,
     * not a request's. Server selection stays bounded.
     */
    ensureIndexes: () =>
      call(async () => {
        const indexClient = new MongoClient(options.uri, { ...clientOptions, socketTimeoutMS: 0, writeConcern: { w: "majority" } });
        try {
          await ensureDeclaredIndexes(indexClient.db(options.database), declared);
        } finally {
          await indexClient.close();
        }
      }),

    /**
     * Runs `work` in a MongoDB transaction, retried as the driver's `withTransaction` would but
     * within `transactionTimeoutMs` (runBoundedTransaction). It commits under the client's
     * majority write concern whatever durability is asked for.
     */
    transaction: <R>(work: (session: Session) => Promise<R>) =>
      call(async () => {
        const clientSession = client.startSession();
        const session: Session = Object.freeze({ id: randomUUID() });
        const deadline = transactionDeadline(timeouts.transactionTimeoutMs);
        transactions.set(session, { clientSession, deadline });
        try {
          return await runBoundedTransaction(clientSession, () => work(session), deadline, { maxCommitTimeMS: timeouts.maxCommitTimeMs });
        } finally {
          await clientSession.endSession();
        }
      }),

    // Every write already waited for the write concern: nothing is pending.
    flush: async () => undefined,

    ping: () => call(() => proveWritable(db, timeouts.operationTimeoutMs)),

    async close() {
      closed = true;
      await client.close();
    },
  };
}
