import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { open } from "lmdb";

/** The file an embedded store keeps its data in, inside its directory (lock.mdb beside it is not data). */
export const embeddedDataFileName = "data.mdb";

/**
 * Copies the embedded store in directory `path` to `to/data.mdb` (`to` is created), as it stood
 * at one moment: LMDB's copy (mdb_env_copy, compacted) reads one read-transaction snapshot, so a
 * store in use by another process is copied consistently while that process goes on writing,
 * without waiting for it and without its lock. The copy drops free pages, so it is often smaller.
 *
 * Meant for a process other than the one that has the store open (`bayad backup`): in that one,
 * lmdb would hand this function the store's own environment, and closing it here would close it
 * there.
 */
export async function backupEmbeddedStore(path: string, to: string): Promise<void> {
  // readOnly: the copy only reads (a reader slot in lock.mdb, which every LMDB process shares).
  const root = open({ path: resolve(path), noSubdir: false, readOnly: true });
  try {
    await mkdir(to, { recursive: true, mode: 0o700 });
    // With the directory layout (not noSubdir), LMDB writes `to/data.mdb`, refusing one that exists.
    await root.backup(resolve(to), true);
  } finally {
    await root.close();
  }
}
