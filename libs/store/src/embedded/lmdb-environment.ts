import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { open as openFile, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { open, type Database, type RootDatabase } from "lmdb";
import { StoreNotWritableError, StoreUnavailableError } from "../port.js";

/**
 * One LMDB environment: the directory an embedded store lives in, with three sub-databases.
 *
 * - `documents`: key = collection id + `_id` (index-keys.ts `documentKey`), value = the document
 *   (MessagePack; lmdb's object cache off, so documents live in the map, not in the V8 heap);
 * - `indexEntries`: key = index id + encoded field values + `_id`, empty value;
 * - `metadata`: the catalog (catalog.ts): collections, their ids and their indexes.
 *
 * Writes commit synchronously (`write`), on the caller's thread, so they are visible at once and
 * atomic; the commit does not wait for the disk (LMDB's MDB_NOSYNC), so it costs tens of
 * microseconds rather than an fdatasync. `durable()` then flushes on the libuv thread pool, and
 * every commit made while a flush runs shares the next one (group commit). A process killed after
 * `write` returned loses nothing (the pages are in the kernel's page cache); a write's caller
 * waits for `durable()` before it learns of success, so what it acknowledged also survives an
 * operating-system crash; a deferred write's caller does not wait (`flushSoon()`, port.ts's
 * Durability). lmdb's overlappingSync would order the flush for power loss too, but it
 * flushes inside every commit made on the JavaScript thread (≈0.4 ms each, measured), and its
 * asynchronous commits would make a transaction wait a worker round trip before it may read.
 *
 * When the disk fails a write (full, read-only, quota, I/O error), the environment is not
 * writable until a probe shows it can write again (`writable()`):
 * - a commit that fails is aborted by LMDB: nothing of it is stored or visible;
 * - a commit that succeeded but whose flush failed is visible to readers (LMDB has no way to take
 *   it back) but its caller gets StoreNotWritableError, never a success: it is an answer with an
 *   unknown outcome, which the services reconcile by Idempotency-Key as after a crash. Further
 *   commits are refused from then on, so no more unacknowledged writes pile up on top of it.
 * The probe flushes what is pending and writes (and removes) a small file beside data.mdb, so a
 * disk with a few free pages left in LMDB's map does not pass for writable.
 */
export interface LmdbEnvironment {
  readonly path: string;
  readonly documents: Database<Record<string, unknown>, Buffer>;
  readonly indexEntries: Database<Buffer, Buffer>;
  readonly metadata: Database<unknown, string>;
  /** Runs `work` in one write transaction: all its writes commit together, or none when it throws. */
  write<R>(work: () => R): R;
  /** Resolves once everything committed so far is on disk (at once for a temporary store). */
  durable(): Promise<void>;
  /**
   * Makes sure what is committed so far reaches the disk without anyone waiting: by a flush
   * already asked for, or by one started within `deferredFlushMs` (a deferred write, see port.ts).
   */
  flushSoon(): void;
  /**
   * Resolves when the store can write: at once, unless a commit or flush failed for a storage
   * reason; then only once a probe succeeds (else rejects with StoreNotWritableError).
   */
  writable(): Promise<void>;
  close(): Promise<void>;
}

export interface EnvironmentOptions {
  /** The directory; created if missing. Without it, a temporary store whose files vanish with it. */
  path?: string;
  /** How long a deferred write may wait for a flush nobody else asked for, in ms. Default 20. */
  deferredFlushMs?: number;
}

const EMPTY = Buffer.alloc(0);

/** The directories of the stores open in this process. */
const openPaths = new Set<string>();

export function openEnvironment(options: EnvironmentOptions): LmdbEnvironment {
  const temporary = options.path === undefined;
  const path = options.path === undefined ? mkdtempSync(join(tmpdir(), "bayad-store-")) : resolve(options.path);
  // lmdb would hand a second open the same environment, but each store keeps its own catalog and
  // lock: two on one directory would allocate the same ids and break each other's uniqueness.
  if (openPaths.has(path)) throw new Error(`The embedded store in ${path} is already open in this process`);
  let root: RootDatabase;
  try {
    mkdirSync(path, { recursive: true });
    assertLmdbDataFile(join(path, "data.mdb"));
    // noSubdir: a directory named like a file ("data.v1") must still be a directory.
    // Not useWritemap, though it makes commits ~30 % cheaper: pages written through the map
    // into a sparse file raise SIGBUS when the disk is full, where pwrite fails with ENOSPC.
    root = open({ path, noSubdir: false, maxDbs: 3, noSync: true });
  } catch (error) {
    throw storageFault(error) ?? error;
  }
  openPaths.add(path);
  // msgpackr records with shared structures: each document shape's field names are stored once
  // (under a key no document has) rather than in every document, which makes documents smaller
  // and decoding faster than plain maps (measured in bench/README.md).
  const documents = root.openDB<Record<string, unknown>, Buffer>("documents", {
    keyEncoding: "binary",
    cache: false,
    sharedStructuresKey: STRUCTURES_KEY,
    maxSharedStructures: 512,
  } as never);
  const indexEntries = root.openDB<Buffer, Buffer>("index-entries", { keyEncoding: "binary", encoding: "binary", cache: false });
  const metadata = root.openDB<unknown, string>("metadata", { cache: false });
  // A temporary store's files are unlinked at once: LMDB keeps working on its open descriptors,
  // and the kernel frees the space when they close, however the process ends (a test that never
  // closes its store, a worker killed by the test runner) — nothing is left behind in tmpdir.
  if (temporary) rmSync(path, { recursive: true, force: true });
  /** Set while the disk refuses writes (see the interface's comment); cleared by a probe that succeeds. */
  let fault: StoreNotWritableError | undefined;
  const failed = (error: StoreUnavailableError): StoreUnavailableError => {
    if (error instanceof StoreNotWritableError) fault = error;
    return error;
  };
  const flusher = temporary ? undefined : groupFlusher(root, failed, options.deferredFlushMs ?? 20);
  let probing: Promise<void> | undefined;
  const probe = async () => {
    await flusher?.flush();
    if (!temporary) await probeWrite(join(path, PROBE_FILE));
    fault = undefined;
  };

  return {
    path,
    documents,
    indexEntries,
    metadata,
    write<R>(work: () => R): R {
      if (fault !== undefined) throw fault;
      let result: R;
      try {
        result = root.transactionSync(work);
      } catch (error) {
        forgetUnsavedStructures(documents);
        const storage = storageFault(error);
        throw storage === undefined ? error : failed(storage);
      }
      flusher?.committed();
      return result;
    },
    durable: () => flusher?.flush() ?? Promise.resolve(),
    flushSoon: () => flusher?.soon(),
    writable() {
      if (fault === undefined) return Promise.resolve();
      probing ??= probe()
        .catch((error: unknown) => {
          throw failed(storageFault(error) ?? new StoreNotWritableError("The embedded store cannot write", { cause: error }));
        })
        .finally(() => (probing = undefined));
      return probing;
    },
    async close() {
      // Deferred writes too: with MDB_NOSYNC, closing does not flush by itself.
      await flusher?.flush().catch(() => undefined);
      await flusher?.idle();
      await root.close();
      openPaths.delete(path);
    },
  };
}

/** Sorts before every document key (those start with a collection id, 1 or more, in four bytes). */
const STRUCTURES_KEY = Buffer.from([0]);

/**
 * msgpackr adds a new document shape to its in-memory structures and saves them inside the write
 * transaction that first uses it. When that transaction aborts, memory holds a structure the
 * database does not, and later documents of that shape would be stored pointing at it (unreadable
 * after a restart). msgpackr's `uninitialized` flag makes its next encoding reload the structures
 * from the database first, as it does itself when a save is refused.
 */
function forgetUnsavedStructures(documents: Database<Record<string, unknown>, Buffer>): void {
  const structures = (documents as unknown as { encoder?: { structures?: { uninitialized?: boolean } } }).encoder?.structures;
  if (structures !== undefined) structures.uninitialized = true;
}

/** The empty value of an index entry (everything is in its key). */
export const NO_VALUE = EMPTY;

/**
 * Flushes the environment on demand, one flush at a time. A caller waits for a flush that began
 * after the last commit it may have seen; one arriving while a flush runs waits for the next,
 * which then covers every commit made in between (group commit). With nothing committed since
 * the last flush, nobody waits. A deferred write asks for a flush `soon`: within `deferredMs`,
 * unless a flush asked for meanwhile covers it.
 */
function groupFlusher(
  root: RootDatabase,
  failed: (error: StoreUnavailableError) => StoreUnavailableError,
  deferredMs: number,
): { committed(): void; flush(): Promise<void>; soon(): void; idle(): Promise<void> } {
  let commits = 0;
  let timer: NodeJS.Timeout | undefined;
  let flushedThrough = 0;
  let running: { through: number; done: Promise<void> } | undefined;
  let queued: Promise<void> | undefined;
  const sync = (through: number) =>
    new Promise<void>((resolve, reject) => {
      // lmdb's sync(callback) flushes on the thread pool (mdb_env_sync, forced); its types omit it.
      (root as unknown as { sync(done: (error?: unknown) => void): void }).sync((error?: unknown) => {
        if (error) reject(failed(storageFault(error) ?? new StoreNotWritableError("The embedded store could not flush to disk", { cause: error })));
        else {
          flushedThrough = Math.max(flushedThrough, through);
          resolve();
        }
      });
    });
  const flush = (): Promise<void> => {
    const target = commits;
    if (flushedThrough >= target) return Promise.resolve();
    if (running === undefined) {
      const current = { through: target, done: sync(target) };
      running = current;
      void current.done.then(
        () => (running = running === current ? undefined : running),
        () => (running = running === current ? undefined : running),
      );
      return current.done;
    }
    if (running.through >= target) return running.done;
    queued ??= running.done
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return flush();
      });
    return queued;
  };
  const soon = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      // A failed flush has already marked the store not writable (`failed`); nobody waits here.
      flush().catch(() => undefined);
    }, deferredMs);
    // A process that exits meanwhile leaves the commit in the page cache, as after a SIGKILL.
    timer.unref();
  };
  return {
    committed: () => void commits++,
    flush,
    soon,
    idle: async () => {
      clearTimeout(timer);
      timer = undefined;
      await queued?.catch(() => undefined);
      await running?.done.catch(() => undefined);
    },
  };
}

const STORAGE_FAULT = /ENOSPC|EROFS|EACCES|EPERM|EDQUOT|EIO|MDB_MAP_FULL|No space left|Read-only file system|Permission denied|quota exceeded|Input\/output error/i;
const STORAGE_ERRNO = new Set([5, 13, 28, 30, 122]); // EIO, EACCES, ENOSPC, EROFS, EDQUOT

/**
 * A storage failure (full disk, read-only or unreadable files) as StoreUnavailableError, so
 * services answer 503; undefined for anything else. The LMDB transaction it broke was aborted.
 */
export function storageFault(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const known = (typeof code === "number" && STORAGE_ERRNO.has(code)) || STORAGE_FAULT.test(`${String(code)} ${error.message}`);
  return known ? new StoreNotWritableError(`The embedded store cannot write: ${error.message}`, { cause: error }) : undefined;
}

/** Beside data.mdb while a probe runs; a backup copies data.mdb only. */
const PROBE_FILE = "write-probe.tmp";
/** About what a small commit writes: a few 4 KiB pages plus the branch pages above them. */
const PROBE_BYTES = 64 * 1024;

/** Writes PROBE_BYTES to `file`, flushes them to the disk and removes the file. */
async function probeWrite(file: string): Promise<void> {
  const handle = await openFile(file, "w");
  try {
    await handle.write(Buffer.alloc(PROBE_BYTES, 1));
    await handle.sync();
  } finally {
    await handle.close();
    await unlink(file).catch(() => undefined);
  }
}

/** LMDB's meta page: a 16-byte page header, then MDB_meta, which opens with this magic number. */
const META_MAGIC_OFFSET = 16 + 8;
const META_MAGIC = 0xbeefc0de;

/**
 * Refuses a data file that is not LMDB's before LMDB maps it: lmdb reads a damaged meta page
 * without checking and the process dies of a segmentation fault, with no message to act on. An
 * absent or empty file is a new store. A file with LMDB's magic but damage deeper in is beyond
 * this check (restore a backup).
 */
function assertLmdbDataFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    const head = Buffer.alloc(META_MAGIC_OFFSET + 4);
    const read = readSync(fd, head, 0, head.length, 0);
    if (read === 0) return;
    if (read < head.length || head.readUInt32LE(META_MAGIC_OFFSET) !== META_MAGIC) {
      throw new Error(`${file} is not an LMDB data file (damaged, or not a store's): restore it from a backup, or move it away to start afresh`);
    }
  } finally {
    closeSync(fd);
  }
}
