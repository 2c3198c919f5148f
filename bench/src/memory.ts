import { readFileSync } from "node:fs";

/** One reading of a process's memory, in bytes. */
export interface MemoryReading {
  /** Resident set size now. */
  rss: number;
  /**
   * V8 heap in use after a full garbage collection: what the process still holds on to (every
   * thread's heap: the main thread's and the services thread's).
   */
  heapUsed: number;
  /** The highest resident set size the process has had (its high-water mark). */
  peakRss: number;
}

/**
 * Collects garbage, then reads the process's memory, adding `otherHeaps` (the heap of the
 * services' worker thread, read there). Collecting first is what makes heap readings comparable:
 * without it a reading mostly measures how long ago V8 last collected.
 */
export function readMemory(otherHeaps = 0): MemoryReading {
  collectGarbage();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed + otherHeaps, peakRss: peakRss() };
}

/**
 * Two full collections on this thread (objects with finalizers or weak references die in the
 * second). Needs `--expose-gc` (a worker thread has it when its process does); without it the
 * figures would be uncollected, so it throws rather than let a leak estimate be made of noise.
 */
export function collectGarbage(): void {
  if (typeof globalThis.gc !== "function") throw new Error("memory readings need node --expose-gc");
  globalThis.gc();
  globalThis.gc();
}

/**
 * The kernel's high-water mark (VmHWM) where there is one (Linux), else Node's maxRSS, which is
 * the same figure from getrusage but in kibibytes.
 */
function peakRss(): number {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through to getrusage.
  }
  return process.resourceUsage().maxRSS * 1024;
}
