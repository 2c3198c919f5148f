import { randomBytes, randomUUID } from "node:crypto";
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
import { AsyncMutex } from "./async-mutex.js";
import type { DocumentSet } from "./document-set.js";
import { StagedTable } from "./staged-table.js";
import { Table, type StoredDoc } from "./table.js";
import { toBson } from "./bson-values.js";
import { purgeExpired } from "./ttl-sweep.js";

export interface EmbeddedStoreOptions {
  /** How often expired TTL documents are purged, in ms. MongoDB's TTL monitor runs every 60 s. */
  ttlSweepMs?: number;
  /**
   * How long a transaction may run before it is aborted, in ms (MongoDB's
   * transactionLifetimeLimitSeconds defaults to 60 s). It is also what ends a transaction whose
   * work waits for a write made without its session, which queues behind the transaction itself.
   */
  transactionLifetimeMs?: number;
}

interface Transaction {
  /** The writes of this transaction, staged per table and applied at commit. */
  readonly tables: Map<string, StagedTable>;
  open: boolean;
  /** The first write that failed; like MongoDB, it dooms the transaction even if `work` catches it. */
  failure?: unknown;
}

const EMPTY_TABLE = Table.empty();

/**
 * The in-process store for `npm start` and tests. Nothing is persisted.
 *
 * Serializability comes from one store-wide lock: a transaction holds it from start to commit or
 * abort, and every write outside a transaction takes it too, so the transaction sees no
 * concurrent writes. It stages its own per table (`StagedTable`), each checked against the
 * committed documents and the other staged ones when it is made, and its commit applies them all
 * with no await in between (an abort drops them). Reads take no lock: they see the committed
 * tables (plus, with `{ session }`, the transaction's staged writes), which never hold half a
 * transaction.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): Store {
  const committed = new Map<string, Table>();
  const declared = new Map<string, Map<string, IndexSpec>>();
  const transactions = new WeakMap<Session, Transaction>();
  const lock = new AsyncMutex();
  const transactionLifetimeMs = options.transactionLifetimeMs ?? 60_000;
  let closed = false;
  let sweeping = false;

  const sweep = setInterval(() => void sweepExpired(), options.ttlSweepMs ?? 60_000);
  sweep.unref();

  function assertOpen(): void {
    if (closed) throw new StoreUnavailableError("The embedded store is closed");
  }

  function transactionOf(session: Session | undefined): Transaction | undefined {
    if (session === undefined) return undefined;
    const transaction = transactions.get(session);
    if (transaction === undefined || !transaction.open) {
      throw new Error(`Session ${session.id} is not an open transaction of this store`);
    }
    if (transaction.failure !== undefined) throw transaction.failure;
    return transaction;
  }

  function exclusive<R>(work: () => R | Promise<R>): Promise<R> {
    return lock.runExclusive(() => {
      assertOpen();
      return work();
    });
  }

  function committedTable(name: string): Table {
    let table = committed.get(name);
    if (table === undefined) {
      table = Table.empty();
      committed.set(name, table);
    }
    return table;
  }

  async function read<R>(name: string, session: Session | undefined, query: (table: DocumentSet) => R): Promise<R> {
    assertOpen();
    const transaction = transactionOf(session);
    return query(transaction?.tables.get(name) ?? committed.get(name) ?? EMPTY_TABLE);
  }

  async function write<R>(name: string, session: Session | undefined, change: (table: DocumentSet) => R): Promise<R> {
    assertOpen();
    const transaction = transactionOf(session);
    if (transaction === undefined) return exclusive(() => change(committedTable(name)));
    let table = transaction.tables.get(name);
    if (table === undefined) {
      table = new StagedTable(committedTable(name));
      transaction.tables.set(name, table);
    }
    try {
      return change(table);
    } catch (error) {
      transaction.failure = error;
      throw error;
    }
  }

  /**
   * Runs `work` with the lock held and commits its tables, unless it failed or outlived the
   * lifetime limit: then nothing of it is committed and the lock is released at once.
   */
  function runTransaction<R>(work: (session: Session) => Promise<R>): Promise<R> {
    const session: Session = Object.freeze({ id: randomUUID() });
    const transaction: Transaction = { tables: new Map(), open: true };
    transactions.set(session, transaction);
    return new Promise<R>((resolve, reject) => {
      const expiry = setTimeout(() => {
        transaction.open = false;
        reject(
          new Error(
            `The transaction ran longer than ${transactionLifetimeMs} ms and was aborted. Inside a transaction, ` +
              "pass { session } to every write and start no other transaction: a write without it waits for this one to end.",
          ),
        );
      }, transactionLifetimeMs);
      const finish = (outcome: () => R) => {
        clearTimeout(expiry);
        if (!transaction.open) return; // expired: already rejected, nothing commits
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        } finally {
          transaction.open = false;
        }
      };
      work(session).then(
        (result) =>
          finish(() => {
            if (transaction.failure !== undefined) throw transaction.failure;
            assertOpen();
            for (const [name, staged] of transaction.tables) committedTable(name).applyStaged(staged.writes);
            return result;
          }),
        (error: unknown) =>
          finish(() => {
            throw error;
          }),
      );
    });
  }

  async function sweepExpired(): Promise<void> {
    // A long transaction holds the lock; one waiting sweep is enough, not one per tick.
    if (closed || sweeping) return;
    sweeping = true;
    try {
      await lock.runExclusive(() => {
        if (closed) return;
        const now = new Date();
        for (const table of committed.values()) purgeExpired(table, now);
      });
    } finally {
      sweeping = false;
    }
  }

  function collection<T extends Doc>(def: CollectionDef): Collection<T> {
    const { name } = def;
    const indexes = declared.get(name) ?? new Map<string, IndexSpec>();
    for (const index of def.indexes ?? []) indexes.set(index.name, index);
    declared.set(name, indexes);
    const copy = (doc: StoredDoc | null | undefined): T | null => (doc ? (toBson(doc) as T) : null);
    return {
      name,
      insertOne: async (doc: T, options?: OperationOptions) => {
        await write(name, options?.session, (table) => table.insert(doc));
      },
      findOne: (filter: Filter, options?: FindOptions) =>
        read(name, options?.session, (table) => copy(table.find({ ...options, filter, limit: 1 })[0])),
      find: (filter: Filter, options?: FindOptions) =>
        read(name, options?.session, (table) => table.find({ ...options, filter }).map((doc) => copy(doc) as T)),
      count: (filter: Filter, options?: OperationOptions) =>
        read(name, options?.session, (table) => table.find({ filter }).length),
      updateOne: (filter: Filter, update: Update, options?: UpdateOptions) =>
        write(name, options?.session, (table) => {
          const { matched, modified, upsertedId } = table.updateFirst(filter, update, { upsert: options?.upsert }, newId);
          return upsertedId === undefined ? { matched, modified } : { matched, modified, upsertedId };
        }),
      findOneAndUpdate: (filter: Filter, update: Update, options?: FindOneAndUpdateOptions) =>
        write(name, options?.session, (table) => {
          const outcome = table.updateFirst(filter, update, { upsert: options?.upsert, sort: options?.sort }, newId);
          return copy(options?.returnDocument === "before" ? outcome.before : outcome.after);
        }),
      deleteOne: (filter: Filter, options?: OperationOptions) =>
        write(name, options?.session, (table) => table.deleteMatching(filter, 1)),
      deleteMany: (filter: Filter, options?: OperationOptions) =>
        write(name, options?.session, (table) => table.deleteMatching(filter)),
    };
  }

  return {
    collection,

    async listCollections() {
      assertOpen();
      return [...committed.keys()];
    },

    async ensureIndexes() {
      assertOpen();
      await exclusive(() => {
        for (const [name, indexes] of declared) {
          if (indexes.size > 0) committedTable(name).enforce(indexes.values());
        }
      });
    },

    async transaction<R>(work: (session: Session) => Promise<R>): Promise<R> {
      assertOpen();
      return exclusive(() => runTransaction(work));
    },

    async ping() {
      assertOpen();
    },

    async close() {
      closed = true;
      clearInterval(sweep);
    },
  };
}

/** Same shape as a MongoDB ObjectId in hex, which is what the MongoDB adapter generates. */
function newId(): string {
  return randomBytes(12).toString("hex");
}
