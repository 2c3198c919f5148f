import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, copyFile, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { backupEmbeddedStore, embeddedDataFileName } from "@bayad/store";
import { BackupError } from "./backup-error.js";
import {
  archiveFormatOf,
  decryptedStream,
  encryptedStream,
  encryptionName,
  type BackupEncryption,
  type BackupKeys,
} from "./backup-encryption.js";

export { BackupError } from "./backup-error.js";

/**
 * `bayad backup` and `bayad restore`: a DATA_DIR (deploy/platform/src/data-dir) in one file and
 * back. The layout they know is the launcher's: `secrets.json`, `bayad.pid`, and one embedded
 * store (an LMDB directory) per component, in a directory named after it.
 *
 * The file is a gzipped tar archive: `backup.json` (what it holds), `secrets.json`, and
 * `<component>/data.mdb` for each store, encrypted with age unless the operator asked for it in
 * clear (backup-encryption.ts). Neither lock.mdb nor bayad.pid is kept: they describe the
 * processes using the directory, not its data.
 */

/** Names shared with deploy/platform/src/data-dir (the CLI may not import the launcher). */
const secretsFileName = "secrets.json";
const lockFileName = "bayad.pid";
const manifestName = "backup.json";
const archiveFormat = "bayad-data-dir-backup";
const archiveVersion = 1;

/** A store's directory name as the launcher makes them (the components: gateway, payments, …). */
const storeNamePattern = /^[a-z][a-z0-9-]*$/;

interface Manifest {
  format: typeof archiveFormat;
  version: typeof archiveVersion;
  createdAt: string;
  stores: string[];
}

export interface BackupOutcome {
  file: string;
  stores: string[];
  bytes: number;
  encryption: ReturnType<typeof encryptionName>;
}

/**
 * Copies the data of the platform using `dataDir` (running or not) into `file`: each store from
 * one LMDB read snapshot, the snapshots taken together, and secrets.json, without which the
 * restored data's sealed records and keys cannot be opened. The archive is streamed through the
 * encryption into the file, which is readable by its owner only, and appears whole or not at all
 * (written aside, flushed, then renamed into place).
 */
export async function backupDataDir(dataDir: string, file: string, encryption: BackupEncryption): Promise<BackupOutcome> {
  const source = resolve(dataDir);
  const target = resolve(file);
  const stores = await storesIn(source);
  const secrets = join(source, secretsFileName);
  if (!(await isFile(secrets))) throw new BackupError(`${source} holds no ${secretsFileName}: it is not a Bayad DATA_DIR (set --data-dir or DATA_DIR)`);
  if (await exists(target)) throw new BackupError(`${target} exists: choose another file, or delete it first`);

  const suffix = randomBytes(6).toString("hex");
  const staging = join(dirname(target), `.${basename(target)}.${suffix}.files`);
  const partial = join(dirname(target), `.${basename(target)}.${suffix}.partial`);
  try {
    await mkdir(dirname(target), { recursive: true });
    await mkdir(staging, { mode: 0o700 });
    // Started together, so the stores' snapshots are taken within moments of each other. The
    // records feed and the webhooks service, fed by the others' events, come last: they then miss
    // none of the events already handed on (as after a crash, one still on its way may be in neither).
    const consumers = new Set(["records", "webhooks"]);
    const ordered = [...stores.filter((name) => !consumers.has(name)), ...stores.filter((name) => consumers.has(name))];
    await Promise.all(ordered.map((name) => backupEmbeddedStore(join(source, name), join(staging, name))));
    await copyFile(secrets, join(staging, secretsFileName));
    const manifest: Manifest = { format: archiveFormat, version: archiveVersion, createdAt: new Date().toISOString(), stores };
    await writeFile(join(staging, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });

    const entries = [manifestName, secretsFileName, ...stores.map((name) => `${name}/${embeddedDataFileName}`)];
    const archive = Readable.from(tar.create({ gzip: true, cwd: staging, portable: true }, entries));
    await pipeline(await encryptedStream(archive, encryption), createWriteStream(partial, { flags: "wx", mode: 0o600 }));
    const written = await open(partial, "r+");
    try {
      await written.sync();
    } finally {
      await written.close();
    }
    await rename(partial, target);
    return { file: target, stores, bytes: (await stat(target)).size, encryption: encryptionName(encryption) };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export interface RestoreOutcome {
  dir: string;
  stores: string[];
  /** How the backup was encrypted: "none" for one made in clear. */
  encryption: "passphrase" | "recipient" | "none";
}

/**
 * Unpacks a backup into `dir`, a DATA_DIR for `npm start`: refused when `dir` exists and is not
 * empty (a platform using it holds bayad.pid there), so nothing is ever overwritten. An
 * encrypted backup is opened with `keys` (its first bytes say which it needs). The files are
 * unpacked beside `dir` and renamed into place, so a failed restore (a wrong key, an altered
 * file) leaves no half directory.
 */
export async function restoreDataDir(file: string, dir: string, keys: BackupKeys = {}): Promise<RestoreOutcome> {
  const source = resolve(file);
  const target = resolve(dir);
  if (!(await isFile(source))) throw new BackupError(`${source} is not a file`);
  const format = await archiveFormatOf(source);
  if (format.kind === "unknown") throw new BackupError(`${source} is not a readable Bayad backup (neither age-encrypted nor gzip)`);
  const existing = await readdir(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    if (error.code === "ENOTDIR") throw new BackupError(`${target} is a file, not a directory`);
    throw error;
  });
  if (existing !== undefined && existing.length > 0) {
    const holder = existing.includes(lockFileName) ? await readFile(join(target, lockFileName), "utf8").catch(() => "") : "";
    const by = /^\d+\n?$/.test(holder) && isRunning(Number(holder)) ? ` and in use by a Bayad process (pid ${holder.trim()})` : "";
    throw new BackupError(`${target} is not empty${by}: restore into a new directory`);
  }

  await mkdir(dirname(target), { recursive: true });
  const staging = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.restoring`);
  try {
    await mkdir(staging, { mode: 0o700 });
    const archive = format.kind === "age" ? await decryptedStream(source, format, keys) : createReadStream(source);
    // age authenticates every chunk it passes on: a failure of its stream is an altered or cut file.
    let altered = false;
    if (format.kind === "age") archive.once("error", () => (altered = true));
    const unexpected: string[] = [];
    const unpack = tar.extract({
      cwd: staging,
      strict: true,
      // Only what a backup holds; node-tar already refuses absolute paths and "..".
      filter: (path, entry) => {
        const wanted = isBackupEntry(path) && ("type" in entry ? entry.type === "File" || entry.type === "Directory" : true);
        if (!wanted) unexpected.push(path);
        return wanted;
      },
    });
    await pipeline(archive, unpack).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new BackupError(altered ? `${source} is damaged or was altered (${reason})` : `${source} is not a readable Bayad backup (${reason})`);
    });
    if (unexpected.length > 0) throw new BackupError(`${source} is not a Bayad backup: it holds ${unexpected.slice(0, 3).join(", ")}`);
    const manifest = await readManifest(source, join(staging, manifestName));
    for (const name of manifest.stores) {
      if (!(await isFile(join(staging, name, embeddedDataFileName)))) throw new BackupError(`${source} is incomplete: the ${name} store is missing`);
      await chmod(join(staging, name), 0o700);
    }
    if (!(await isFile(join(staging, secretsFileName)))) throw new BackupError(`${source} is incomplete: ${secretsFileName} is missing`);
    await chmod(join(staging, secretsFileName), 0o600);
    await rm(join(staging, manifestName));
    // An empty directory given as the target is replaced (rename cannot go over a non-empty one).
    if (existing !== undefined) await rmdir(target);
    await rename(staging, target);
    return { dir: target, stores: manifest.stores, encryption: format.kind === "gzip" ? "none" : format.opensWith === "passphrase" ? "passphrase" : "recipient" };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The directories of `dataDir` that hold an embedded store. */
async function storesIn(dataDir: string): Promise<string[]> {
  const entries = await readdir(dataDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(`${dataDir} cannot be read (${error.code ?? error.message}): set --data-dir or DATA_DIR to the platform's DATA_DIR`);
  });
  const stores: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && storeNamePattern.test(entry.name) && (await isFile(join(dataDir, entry.name, embeddedDataFileName)))) {
      stores.push(entry.name);
    }
  }
  return stores.sort();
}

function isBackupEntry(path: string): boolean {
  const parts = path.replace(/\/$/, "").split("/");
  if (parts.length === 1) return parts[0] === manifestName || parts[0] === secretsFileName || storeNamePattern.test(parts[0]);
  return parts.length === 2 && storeNamePattern.test(parts[0]) && parts[1] === embeddedDataFileName;
}

async function readManifest(source: string, path: string): Promise<Manifest> {
  const text = await readFile(path, "utf8").catch(() => undefined);
  let parsed: Partial<Manifest> | undefined;
  try {
    parsed = text === undefined ? undefined : (JSON.parse(text) as Partial<Manifest>);
  } catch {
    parsed = undefined;
  }
  if (parsed?.format !== archiveFormat || !Array.isArray(parsed.stores) || !parsed.stores.every((name) => typeof name === "string" && storeNamePattern.test(name))) {
    throw new BackupError(`${source} is not a Bayad backup (no valid ${manifestName})`);
  }
  if (parsed.version !== archiveVersion) throw new BackupError(`${source} is a backup of format version ${String(parsed.version)}; this bayad reads version ${archiveVersion}`);
  return parsed as Manifest;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
