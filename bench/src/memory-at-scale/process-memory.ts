import { readFileSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { procKibField } from "../memory.js";

/**
 * What a process holds outside the V8 heap, read from outside it. LMDB maps its file into the
 * process: those pages count in RSS but are the kernel's page cache, shared with the file and
 * dropped under pressure, so RSS grows with what was read, not with what the process holds.
 * Anonymous memory (malloc, V8's heaps, thread stacks) is what the process alone holds: that is
 * the figure the targets judge.
 */

/** `Anonymous:` of smaps_rollup (all anonymous pages), else `RssAnon:` of status (the same pages, resident); in bytes. */
export function parseAnonymousBytes(smapsRollup: string | undefined, status: string | undefined): number | undefined {
  return procKibField(smapsRollup, "Anonymous") ?? procKibField(status, "RssAnon");
}

/** The process's anonymous memory in bytes, or undefined without /proc (not Linux). */
export function anonymousBytes(pid: number): number | undefined {
  const read = (file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, "utf8");
    } catch {
      return undefined;
    }
  };
  return parseAnonymousBytes(read("smaps_rollup"), read("status"));
}

/**
 * Bytes the files under `path` occupy on disk, as `du` counts them (allocated blocks, so a
 * sparse LMDB map counts only what was written).
 */
export async function diskUsageBytes(path: string): Promise<number> {
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.blocks * 512;
  let total = stats.blocks * 512;
  for (const entry of await readdir(path)) total += await diskUsageBytes(join(path, entry));
  return total;
}
