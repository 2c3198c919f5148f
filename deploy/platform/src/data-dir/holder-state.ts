import { readFile } from "node:fs/promises";

/**
 * How the process a lock file names stands, as far as holding a DATA_DIR goes: it runs (it holds
 * the directory), it is exiting (it will let go; worth a short wait), or it is gone (it holds
 * nothing: no such process, or one that has exited and is only waiting to be reaped).
 */
export type HolderState =
  | { kind: "runs" }
  | { kind: "exiting"; sign: "SIGKILL pending" }
  | { kind: "gone"; sign?: "zombie" | "dead" };

/** SIGKILL's number on Linux: bit 9 (from 1) of a /proc signal mask, i.e. `1n << 8n`. */
const sigkill = 9;

/**
 * The state of process `pid`, from Linux's /proc/<pid>/status where it can be read, else from
 * `process.kill(pid, 0)` (other systems, a /proc hiding other users' processes): runs or gone.
 */
export async function readHolderState(pid: number): Promise<HolderState> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  return (status === undefined ? undefined : holderStateFromStatus(status)) ?? holderStateFromSignal(pid);
}

/**
 * The state a /proc/<pid>/status text describes, or undefined when it lacks the fields read here.
 *
 * One file rather than `stat` and `status`, so the state, the thread count and the pending signals
 * are read at one moment. A zombie holds nothing only when it is the last of its threads: its
 * state is the thread group leader's, which shows Z as soon as the leader has exited, while the
 * other threads may still run (a leader that called pthread_exit) or still be tearing the process
 * down (after a SIGKILL, the last thread releases the memory, which for a large LMDB map takes
 * seconds, and the process keeps its files and their locks until then). A SIGKILL pending, in the
 * leader's own set (SigPnd) or the process's (ShdPnd), where the kernel leaves it until the process
 * is reaped, marks a process being killed.
 */
export function holderStateFromStatus(status: string): HolderState | undefined {
  const fields = statusFields(status);
  const state = fields.get("State")?.charAt(0);
  const threads = Number(fields.get("Threads"));
  const pending = [fields.get("SigPnd"), fields.get("ShdPnd")];
  if (!state || !Number.isInteger(threads) || pending.some((mask) => mask === undefined || !/^[0-9a-f]+$/i.test(mask))) return undefined;
  if (state === "X") return { kind: "gone", sign: "dead" };
  if (state === "Z" && threads <= 1) return { kind: "gone", sign: "zombie" };
  if (pending.some((mask) => signalPending(mask!, sigkill))) return { kind: "exiting", sign: "SIGKILL pending" };
  return { kind: "runs" };
}

/** The `Name:\tvalue` lines of a /proc/<pid>/status text, values trimmed. */
export function statusFields(status: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of status.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

/** Whether signal `signal` (1-based, as in `kill -9`) is set in a /proc signal mask (hexadecimal). */
export function signalPending(mask: string, signal: number): boolean {
  return ((BigInt(`0x${mask}`) >> BigInt(signal - 1)) & 1n) === 1n;
}

function holderStateFromSignal(pid: number): HolderState {
  try {
    process.kill(pid, 0);
    return { kind: "runs" };
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? { kind: "runs" } : { kind: "gone" };
  }
}
