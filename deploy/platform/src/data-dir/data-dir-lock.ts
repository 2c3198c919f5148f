import { randomBytes } from "node:crypto";
import { link, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { ConfigError } from "@bayad/kit";
import { readHolderState, type HolderState } from "./holder-state.js";

/** The file that says which process uses a DATA_DIR: its pid, while it runs. */
export const lockFileName = "bayad.pid";

/** The directories this process holds (a pid file naming this process would otherwise pass for stale). */
const held = new Set<string>();

/** How often a holder that is exiting is looked at again. */
const exitPollMs = 20;

export interface LockOptions {
  /**
   * How long to wait for a holder that is exiting (killed, still releasing its memory) before
   * refusing the directory as in use; 10 s by default.
   */
  exitWaitMs?: number;
  /** How a holder's state is read (tests pass their own); /proc, else `kill(pid, 0)`, by default. */
  readHolderState?: (pid: number) => Promise<HolderState>;
}

/** A holder that was still there when the directory was taken over, for the log. */
export interface TakeOver {
  pid: number;
  /** What was seen of it: a zombie (taken at once), or the sign it was exiting (then waited for). */
  sign: "zombie" | "dead" | "SIGKILL pending";
  waitedMs: number;
}

export interface DataDirLock {
  /** Lets another process have the directory. */
  release(): Promise<void>;
  /** The holder it took over from, when one was still there (a process merely gone is not named). */
  takenOver?: TakeOver;
}

/**
 * Makes `dir` this process's alone, until `release`: one Bayad per DATA_DIR, since the embedded
 * stores serialise their writes inside the process that opened them.
 *
 * An exclusive pid file rather than proper-lockfile: proper-lockfile judges a lock stale by its
 * age (a lock left by a SIGKILL refuses every start for its `stale` period, at least 2 s and 10 s
 * by default, which a restart after a crash would run into), and it cannot name the holder. Here
 * the file appears whole or not at all (written aside, then hard-linked into place, which fails
 * if it exists), and a file whose pid holds nothing was left by a process that is gone (killed,
 * crashed, or before a reboot; or a zombie its parent has not reaped yet) and is taken over. A
 * holder being killed is waited for, up to `exitWaitMs`: a restart right after a SIGKILL would
 * otherwise find it still releasing a large LMDB map, and be refused. One that runs is refused at
 * once. Two starts racing for one stale file right after a crash could both take it over; that
 * needs two launches within microseconds.
 */
export async function lockDataDir(dir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const file = join(dir, lockFileName);
  if (held.has(dir)) throw inUse(dir, process.pid);
  const mine = join(dir, `.${lockFileName}.${process.pid}.${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(mine, `${process.pid}\n`);
  } catch (error) {
    throw new ConfigError("DATA_DIR", `${dir} is not writable (${reason(error)})`);
  }
  let takenOver: TakeOver | undefined;
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
      if (attempt === 3) throw inUse(dir, holder);
      if (holder !== undefined && holder !== process.pid) {
        const judged = await awaitHolder(holder, options);
        if (judged === "runs") throw inUse(dir, holder);
        if (judged !== undefined) takenOver = judged;
      }
      // After a wait, another start may have taken the file over first: then it is the holder to judge.
      if ((await holderOf(file)) === holder) await rm(file, { force: true });
    }
  } finally {
    await rm(mine, { force: true });
  }
  held.add(dir);
  return {
    async release() {
      held.delete(dir);
      if ((await holderOf(file)) === process.pid) await rm(file, { force: true });
    },
    ...(takenOver === undefined ? {} : { takenOver }),
  };
}

/**
 * Whether `pid` still holds the directory ("runs": as well after `exitWaitMs` of exiting), or
 * else what was seen of it (undefined: it was simply gone).
 */
async function awaitHolder(pid: number, options: LockOptions): Promise<TakeOver | "runs" | undefined> {
  const read = options.readHolderState ?? readHolderState;
  const started = performance.now();
  const deadline = started + (options.exitWaitMs ?? 10_000);
  let state = await read(pid);
  const exiting = state.kind === "exiting" ? state.sign : undefined;
  while (state.kind === "exiting" && performance.now() < deadline) {
    await delay(Math.min(exitPollMs, Math.max(0, deadline - performance.now())));
    state = await read(pid);
  }
  if (state.kind !== "gone") return "runs";
  if (exiting !== undefined) return { pid, sign: exiting, waitedMs: Math.round(performance.now() - started) };
  return state.sign === undefined ? undefined : { pid, sign: state.sign, waitedMs: 0 };
}

/** The log line for a take-over, e.g. after waiting for a killed process to finish exiting. */
export function takeOverMessage(dir: string, { pid, sign, waitedMs }: TakeOver): string {
  return sign === "SIGKILL pending"
    ? `DATA_DIR ${dir} was held by pid ${pid}, which was exiting (${sign}): waited ${waitedMs} ms`
    : `DATA_DIR ${dir} was held by pid ${pid}, ${sign === "zombie" ? "a zombie (exited, not yet reaped)" : "a dead process"}: taken over at once`;
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
