import { randomBytes } from "node:crypto";
import { link, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "@bayad/kit";

/** The file that says which process uses a DATA_DIR: its pid, while it runs. */
export const lockFileName = "bayad.pid";

/** The directories this process holds (a pid file naming this process would otherwise pass for stale). */
const held = new Set<string>();

/**
 * Makes `dir` this process's alone, until the returned function releases it: one Bayad per
 * DATA_DIR, since the embedded stores serialise their writes inside the process that opened them.
 *
 * An exclusive pid file rather than proper-lockfile: proper-lockfile judges a lock stale by its
 * age (a lock left by a SIGKILL refuses every start for its `stale` period, at least 2 s and 10 s
 * by default, which a restart after a crash would run into), and it cannot name the holder. Here
 * the file appears whole or not at all (written aside, then hard-linked into place, which fails
 * if it exists), and a file whose pid no longer runs was left by a process that is gone (killed,
 * crashed, or before a reboot) and is taken over. Two starts racing for one stale file right
 * after a crash could both take it over; that needs two launches within microseconds.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = join(dir, lockFileName);
  if (held.has(dir)) throw inUse(dir, process.pid);
  const mine = join(dir, `.${lockFileName}.${process.pid}.${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(mine, `${process.pid}\n`);
  } catch (error) {
    throw new ConfigError("DATA_DIR", `${dir} is not writable (${reason(error)})`);
  }
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await link(mine, file);
        break;
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw new ConfigError("DATA_DIR", `${dir} cannot be locked (${reason(error)})`);
      }
      const holder = await holderOf(file);
      // Another start keeps taking the file as soon as it is free: it is the one that runs.
      if (attempt === 3 || (holder !== undefined && holder !== process.pid && isRunning(holder))) throw inUse(dir, holder);
      await rm(file, { force: true });
    }
  } finally {
    await rm(mine, { force: true });
  }
  held.add(dir);
  return async () => {
    held.delete(dir);
    if ((await holderOf(file)) === process.pid) await rm(file, { force: true });
  };
}

function inUse(dir: string, pid: number | undefined): ConfigError {
  const by = pid === undefined ? "another Bayad process" : `another Bayad process (pid ${pid})`;
  return new ConfigError("DATA_DIR", `${dir} is in use by ${by}: stop it, or set DATA_DIR to another directory`);
}

/** The pid a lock file names, or undefined when it names none (not a file this module wrote). */
async function holderOf(file: string): Promise<number | undefined> {
  const text = await readFile(file, "utf8").catch(() => "");
  return /^\d+\n?$/.test(text) ? Number(text.trim()) : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return codeOf(error) === "EPERM";
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A file-system error in a few words, e.g. "EACCES: permission denied", without the path it names. */
export function reason(error: unknown): string {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const words = /^[A-Z]+: ([^,]+)/.exec(message)?.[1];
  return code && words ? `${code}: ${words}` : message;
}
