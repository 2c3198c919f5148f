import { randomBytes, randomUUID } from "node:crypto";
import type {
  Collection,
  CollectionDef,
  Doc,
  Durability,
  Filter,
  FindOneAndUpdateOptions,
  FindOptions,
  IndexSpec,
  OperationOptions,
  Session,
  Store,
  TransactionOptions,
  Update,
  UpdateOptions,
} from "../port.js";
import { StoreUnavailableError } from "../port.js";
import { AsyncMutex } from "./async-mutex.js";
import { toBson } from "./bson-values.js";
import { Catalog } from "./catalog.js";
import type { DocumentSet, StoredDoc } from "./document-set.js";
import { openEnvironment } from "./lmdb-environment.js";
import { StagedTable } from "./staged-table.js";
import { StoredTable } from "./stored-table.js";
import { stageExpired } from "./ttl-sweep.js";

export interface EmbeddedStoreOptions {
  /**
   * The directory the store lives in (created if missing), kept across restarts. Without it, a
   * new temporary directory under os.tmpdir(), removed on `close()` (or when the process exits):
   * what tests use.
   */
  path?: string;
  /** How often expired TTL documents are purged, in ms. MongoDB's TTL monitor runs every 60 s. */
  ttlSweepMs?: number;
  /**
   * How long a deferred write (port.ts's Durability) may wait for a flush nobody else asked for,
   * in ms: what an operating-system crash may take of them at most. Default 20.
   */
  deferredFlushMs?: number;
  /**
   * How long a transaction may run before it is aborted, in ms (MongoDB's
   * transactionLifetimeLimitSeconds defaults to 60 s). It is also what ends a transaction whose
   * work waits for a write made without its session, which queues behind the transaction itself.
   */
  transactionLifetimeMs?: number;
  /**
   * Runs every transaction's `work` twice, for tests: the first run's writes are dropped (never
   * visible, never committed) and the second run's result commits, as when MongoDB's driver reruns
   * a transaction after a transient error. A callback with effects outside the store (an event
   * emitted in memory, a counter, a provider call) shows them twice, so tests on such a store prove
   * their callbacks safe to run again (port.ts's `transaction`). An error from either run ends the
   * transaction as usual, with nothing committed.
   */
  rerunTransactions?: boolean;
}

interface Transaction {
  /** The writes of this transaction, staged per table and applied at commit. */
  readonly tables: Map<string, StagedTable>;
  open: boolean;
  /** The first write that failed; like MongoDB, it dooms the transaction even if `work` catches it. */
  failure?: unknown;
}

interface Declared {
  indexes: Map<string, IndexSpec>;
  retired: Set<string>;
}

/**
 * The embedded store: in-process, on LMDB (lmdb-environment.ts), its documents and indexes in a
 * memory-mapped file rather than the V8 heap, durable across restarts and crashes when given a
 * `path`. What `npm start` and tests run on.
 *
 * Serializability comes from one store-wide lock: a transaction holds it from start to commit or
 * abort, and every write outside a transaction takes it too, so the transaction sees no
 * concurrent writes. That is more than the port promises (snapshot isolation, port.ts), so code
 * that passes here may still need a version-guarded write against write skew on MongoDB.
 *
 * Every write, in a transaction or not, is staged first (`StagedTable`): checked
 * against the committed documents and the other staged ones when it is made, then applied to LMDB
 * with everything else it belongs with in one synchronous LMDB transaction, so it is visible at
 * once and atomically (an abort drops the staged writes). The lock is released after that commit;
 * the write's promise then waits for the commit to reach the disk (group commit), so no writer
 * queues behind another's flush, and nothing acknowledged is lost to a crash. Reads take no lock:
 * they see the last commit (plus, with `{ session }`, the transaction's staged writes).
 *
 * A disk that refuses writes (full, read-only) makes writes and `ping()` reject with
 * StoreNotWritableError while reads go on; each later write or ping probes the disk, and the
 * store writes again once it can, without a restart (lmdb-environment.ts says what a failed
 * flush leaves visible).
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): Store {
  const env = openEnvironment({ path: options.path, deferredFlushMs: options.deferredFlushMs });
  const catalog = new Catalog(env);
  const tables = new Map<string, StoredTable>();
  const declared = new Map<string, Declared>();
  const transactions = new WeakMap<Session, Transaction>();
  const lock = new AsyncMutex();
  const transactionLifetimeMs = options.transactionLifetimeMs ?? 60_000;
  const rerunTransactions = options.rerunTransactions ?? false;
  let closed = false;
  let closing: Promise<void> | undefined;
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
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the failure caught earlier, unchanged
    if (transaction.failure !== undefined) throw transaction.failure;
    return transaction;
  }

  function exclusive<R>(work: () => R | Promise<R>): Promise<R> {
    return lock.runExclusive(() => {
      assertOpen();
      return work();
    });
  }

  function table(name: string): StoredTable {
    let stored = tables.get(name);
    if (stored === undefined) {
      stored = new StoredTable(env, catalog, name);
      tables.set(name, stored);
    }
    return stored;
  }

  /** Resolves once what was just committed is as durable as asked (port.ts's Durability). */
  function settled(durability: Durability | undefined): Promise<void> {
    if (durability !== "deferred") return env.durable();
    env.flushSoon();
    return Promise.resolve();
  }

  /** Applies staged writes in one LMDB transaction; on failure nothing of them is stored. */
  function commit(staged: Iterable<[string, StagedTable]>): void {
    assertOpen();
    try {
      env.write(() => {
        for (const [name, view] of staged) table(name).commit(view);
      });
    } catch (error) {
      catalog.load(); // the aborted transaction may have registered collections or flagged indexes
      throw error;
    }
  }

  async function read<R>(name: string, session: Session | undefined, query: (table: DocumentSet | StoredTable) => R): Promise<R> {
    assertOpen();
    const transaction = transactionOf(session);
    return query(transaction?.tables.get(name) ?? table(name));
  }

  async function write<R>(name: string, options: OperationOptions | undefined, change: (table: DocumentSet) => R): Promise<R> {
    assertOpen();
    const transaction = transactionOf(options?.session);
    if (transaction === undefined) {
      await env.writable();
      const result = await exclusive(() => {
        const staged = new StagedTable(table(name));
        const outcome = change(staged);
        commit([[name, staged]]);
        return outcome;
      });
      await settled(options?.durability);
      return result;
    }
    let staged = transaction.tables.get(name);
    if (staged === undefined) {
      staged = new StagedTable(table(name));
      transaction.tables.set(name, staged);
    }
    try {
      return change(staged);
    } catch (error) {
      transaction.failure = error;
      throw error;
    }
  }

  /**
   * Runs `work` with the lock held and commits its tables (or, with `keep` false, drops them once
   * it resolved: a run to be made again), unless it failed or outlived the lifetime limit: then
   * nothing of it is committed and the lock is released at once.
   */
  function runTransaction<R>(work: (session: Session) => Promise<R>, keep: boolean): Promise<R> {
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
            // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the failure caught earlier, unchanged
            if (transaction.failure !== undefined) throw transaction.failure;
            if (keep) commit(transaction.tables);
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
        const staged: Array<[string, StagedTable]> = [];
        for (const name of catalog.names()) {
          const view = new StagedTable(table(name));
          stageExpired(table(name), view, now);
          if (view.writes.size > 0) staged.push([name, view]);
        }
        if (staged.length > 0) commit(staged);
      });
    } catch {
      // A sweep that could not write (the disk is full) is tried again at the next tick.
    } finally {
      sweeping = false;
    }
  }

  function collection<T extends Doc>(def: CollectionDef): Collection<T> {
    const { name } = def;
    const declaration = declared.get(name) ?? { indexes: new Map<string, IndexSpec>(), retired: new Set<string>() };
    for (const index of def.indexes ?? []) declaration.indexes.set(index.name, index);
    for (const retired of def.retiredIndexes ?? []) declaration.retired.add(retired);
    declared.set(name, declaration);
    // Documents read from LMDB are fresh objects; staged ones are shared with the transaction, so
    // what a transaction's reads and writes hand out is a copy.
    const output = (doc: StoredDoc | null | undefined, session: Session | undefined): T | null =>
      doc ? ((session === undefined ? doc : toBson(doc)) as T) : null;
    return {
      name,
      insertOne: async (doc: T, options?: OperationOptions) => {
        await write(name, options, (staged) => staged.insert(doc));
      },
      findOne: (filter: Filter, options?: FindOptions) =>
        read(name, options?.session, (view) => output(view.find({ ...options, filter, limit: 1 })[0], options?.session)),
      find: (filter: Filter, options?: FindOptions) =>
        read(name, options?.session, (view) => view.find({ ...options, filter }).map((doc) => output(doc, options?.session) as T)),
      count: (filter: Filter, options?: OperationOptions) =>
        read(name, options?.session, (view) => view.find({ filter }).length),
      updateOne: (filter: Filter, update: Update, options?: UpdateOptions) =>
        write(name, options, (staged) => {
          const { matched, modified, upsertedId } = staged.updateFirst(filter, update, { upsert: options?.upsert }, newId);
          return upsertedId === undefined ? { matched, modified } : { matched, modified, upsertedId };
        }),
      findOneAndUpdate: (filter: Filter, update: Update, options?: FindOneAndUpdateOptions) =>
        write(name, options, (staged) => {
          const outcome = staged.updateFirst(filter, update, { upsert: options?.upsert, sort: options?.sort }, newId);
          // The written document is shared with the staged write (and, outside a transaction, with nothing else).
          return output(options?.returnDocument === "before" ? outcome.before : outcome.after, options?.session);
        }),
      deleteOne: (filter: Filter, options?: OperationOptions) =>
        write(name, options, (staged) => staged.deleteMatching(filter, 1)),
      deleteMany: (filter: Filter, options?: OperationOptions) =>
        write(name, options, (staged) => staged.deleteMatching(filter)),
    };
  }

  return {
    collection,

    async listCollections() {
      assertOpen();
      return catalog.names();
    },

    async ensureIndexes() {
      assertOpen();
      await env.writable();
      await exclusive(() => {
        try {
          env.write(() => {
            for (const [name, { indexes, retired }] of declared) table(name).enforce([...indexes.values()], [...retired]);
          });
        } catch (error) {
          catalog.load();
          throw error;
        }
      });
      await env.durable();
    },

    async transaction<R>(work: (session: Session) => Promise<R>, options?: TransactionOptions): Promise<R> {
      assertOpen();
      await env.writable();
      const result = await exclusive(async () => {
        if (rerunTransactions) await runTransaction(work, false);
        return runTransaction(work, true);
      });
      await settled(options?.durability);
      return result;
    },

    async flush() {
      assertOpen();
      await env.durable();
    },

    // Readiness: a store that cannot write is not ready, and each ping probes whether it can again.
    async ping() {
      assertOpen();
      await env.writable();
    },

    close() {
      closed = true;
      clearInterval(sweep);
      closing ??= env.close();
      return closing;
    },
  };
}

/** Same shape as a MongoDB ObjectId in hex, which is what the MongoDB adapter generates. */
function newId(): string {
  return randomBytes(12).toString("hex");
}
