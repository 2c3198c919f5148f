import { readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";

/** One reading of a process's memory, in bytes. */
export interface MemoryReading {
  /** Resident set size now. */
  rss: number;
  /**
   * V8 heap in use after a full garbage collection: what the process still holds on to (every
   * thread's heap: the main thread's and the services thread's).
   */
  heapUsed: number;
  /**
   * Pages of V8's heaps resident after that collection (every thread's), used or kept for later:
   * the share of anonymous memory V8 holds. Above `heapUsed` by what V8 keeps committed.
   */
  heapResident: number;
  /** Memory outside the heaps that V8 knows its objects hold (Buffers' and ArrayBuffers' contents; every thread's). */
  external: number;
  /** The highest resident set size the process has had (its high-water mark). */
  peakRss: number;
  /** The resident set split by kind of page (see RssSplit); null where /proc cannot tell (not Linux). */
  split: RssSplit | null;
}

/**
 * The resident set by kind of page, from `RssAnon`, `RssFile` and `RssShmem` of
 * `/proc/<pid>/status` (their sum is `VmRSS`). Anonymous pages (malloc, V8's heaps, thread
 * stacks) are what the process alone holds; file pages are mapped files, LMDB's data file among
 * them: the kernel's page cache, which grows with the data read and written and which the kernel
 * takes back under pressure. So anonymous memory is what must stay flat under load, and file
 * pages may grow with the data.
 */
export interface RssSplit {
  anonymous: number;
  file: number;
  shmem: number;
}

/** A `Name:   123 kB` field of a /proc file, in bytes; undefined when the text has none. */
export function procKibField(text: string | undefined, field: string): number | undefined {
  const match = text === undefined ? null : new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(text);
  return match ? Number(match[1]) * 1024 : undefined;
}

/** RssAnon, RssFile and RssShmem of a `/proc/<pid>/status` text; null when any is missing (kernels before 4.5). */
export function parseRssSplit(status: string | undefined): RssSplit | null {
  const anonymous = procKibField(status, "RssAnon");
  const file = procKibField(status, "RssFile");
  const shmem = procKibField(status, "RssShmem");
  if (anonymous === undefined || file === undefined || shmem === undefined) return null;
  return { anonymous, file, shmem };
}

/** One thread's V8 heap after a full collection (a worker thread has its own heap). */
export interface HeapFigures {
  used: number;
  resident: number;
  external: number;
}

export const NO_HEAP: HeapFigures = { used: 0, resident: 0, external: 0 };

/** Collects garbage on this thread, then reads its heap. */
export function heapHere(): HeapFigures {
  collectGarbage();
  const statistics = getHeapStatistics();
  return { used: statistics.used_heap_size, resident: statistics.total_physical_size, external: statistics.external_memory };
}

/**
 * Collects garbage, then reads the process's memory, adding `otherHeap` (the heap of the
 * services' worker thread, read there). Collecting first is what makes heap readings comparable:
 * without it a reading mostly measures how long ago V8 last collected.
 */
export function readMemory(otherHeap: HeapFigures = NO_HEAP): MemoryReading {
  const heap = heapHere();
  const status = ownStatus();
  return {
    rss: process.memoryUsage().rss,
    heapUsed: heap.used + otherHeap.used,
    heapResident: heap.resident + otherHeap.resident,
    external: heap.external + otherHeap.external,
    peakRss: peakRss(status),
    split: parseRssSplit(status),
  };
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

function ownStatus(): string | undefined {
  try {
    return readFileSync("/proc/self/status", "utf8");
  } catch {
    return undefined; // not Linux
  }
}

/**
 * The kernel's high-water mark (VmHWM) where there is one (Linux), else Node's maxRSS, which is
 * the same figure from getrusage but in kibibytes.
 */
function peakRss(status: string | undefined): number {
  return procKibField(status, "VmHWM") ?? process.resourceUsage().maxRSS * 1024;
}
