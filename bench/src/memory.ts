import { readFileSync } from "node:fs";

/** One reading of a process's memory, in bytes. */
export interface MemoryReading {
  /** Resident set size now. */
  rss: number;
  /** V8 heap in use after a full garbage collection: what the process still holds on to. */
  heapUsed: number;
  /** The highest resident set size the process has had (its high-water mark). */
  peakRss: number;
}

/**
 * Collects garbage, then reads the process's memory. Collecting first is what makes heap
 * readings comparable: without it a reading mostly measures how long ago V8 last collected.
 * Needs `--expose-gc`; without it the figures are uncollected (and say so by throwing, since a
 * leak estimate made from them would be noise).
 */
export function readMemory(): MemoryReading {
  if (typeof globalThis.gc !== "function") throw new Error("memory readings need node --expose-gc");
  // Two passes: objects with finalizers or weak references die in the second.
  globalThis.gc();
  globalThis.gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed, peakRss: peakRss() };
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
