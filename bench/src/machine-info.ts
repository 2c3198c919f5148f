import { execFileSync } from "node:child_process";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

/** Where and on what a run was made: figures from different machines are not comparable. */
export interface MachineInfo {
  date: string;
  /** Short commit, "+dirty" when the tree had changes; "unknown" outside a git checkout. */
  commit: string;
  node: string;
  cpu: string;
  cores: number;
  memoryBytes: number;
  /** One-minute load average when the run began: well above 0 means something else was running. */
  loadAverage: number;
}

export function machineInfo(now: Date): MachineInfo {
  return {
    date: now.toISOString(),
    commit: gitCommit(),
    node: process.version,
    cpu: cpus()[0]?.model.trim() ?? "unknown",
    cores: availableParallelism(),
    memoryBytes: totalmem(),
    loadAverage: loadavg()[0] ?? 0,
  };
}

function gitCommit(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const commit = git("rev-parse", "--short", "HEAD");
    return git("status", "--porcelain").length > 0 ? `${commit}+dirty` : commit;
  } catch {
    return "unknown";
  }
}
