import { mark, mib, count, signedMib } from "./report-format.js";
import type { MemoryReading } from "./memory.js";
import type { SoakResult } from "./soak.js";
import { anonymousGrowth, leakEstimate } from "./targets.js";

/**
 * The platform process's memory: its peak, then the soak's readings: the heap and the leak
 * estimate, the resident set split into anonymous and file-backed pages with its verdict, and
 * the samples taken during the load.
 */
/** Anonymous memory that is neither V8's heaps nor what V8's objects hold outside them: malloc, stacks, code. */
function rest(reading: MemoryReading): number {
  return (reading.split?.anonymous ?? 0) - reading.heapResident - reading.external;
}

export function soakMemorySection(soak: SoakResult, peakRss: number): string[] {
  const leak = leakEstimate(soak);
  const anonymous = anonymousGrowth(soak);
  const split = (reading: { split: SoakResult["empty"]["split"] }, pick: "anonymous" | "file") => (reading.split ? mib(reading.split[pick]) : "—");
  const lines = [
    "## Memory (platform process)",
    "",
    `- Peak RSS over the whole run: ${mib(peakRss)}`,
    `- Soak: scenario 2 for ${soak.seconds} s: ${count(soak.checkoutsCreated)} checkouts answered 201; ${count(soak.recordsStored)} records once the feed caught up (the difference is the requests in flight when the run stopped)`,
    `- RSS: ${mib(soak.empty.rss)} before → ${mib(soak.withData.rss)} with the soak's data (${signedMib(leak.rssGrowthBytes)})`,
  ];
  if (anonymous) {
    const { empty, withData, settled } = soak;
    lines.push(
      `- Anonymous memory (RssAnon: malloc, V8's heaps, stacks): ${split(empty, "anonymous")} before → ${split(withData, "anonymous")} right after the load (${signedMib(anonymous.underLoadBytes)}, the duplicate window included) → ${split(settled, "anonymous")} ${soak.settleSeconds > 0 ? "settled" : "after deleting the data (not settled)"}: ${signedMib(anonymous.settledBytes)} over the start → ${anonymous.unjudged ? `not judged: ${anonymous.unjudged}` : mark(anonymous.check)}`,
      `- Where the anonymous memory's ${signedMib(anonymous.settledBytes)} went (${soak.settleSeconds > 0 ? "settled" : "after deleting the data"} − before, each after GC): V8's heaps ${signedMib(settled.heapResident - empty.heapResident)} (their resident pages, used or kept), what V8's objects hold outside them (Buffers, ArrayBuffers) ${signedMib(settled.external - empty.external)}, the rest, roughly (malloc, stacks, code; V8 counts pages it committed) ${signedMib(rest(settled) - rest(empty))}`,
      `- File-backed memory (RssFile: LMDB's mapped data files, the code; the kernel's page cache, not judged): ${split(empty, "file")} before → ${split(withData, "file")} right after the load (${signedMib(anonymous.fileUnderLoadBytes)})`,
    );
  } else {
    lines.push("- Anonymous and file-backed memory: not read (no RssAnon/RssFile in /proc/<pid>/status here)");
  }
  lines.push(
    `- Heap after GC: ${mib(soak.empty.heapUsed)} empty → ${mib(soak.withData.heapUsed)} with data → ${mib(soak.dropped.heapUsed)} right after deleting it` +
      (soak.settleSeconds > 0 ? ` → ${mib(soak.settled.heapUsed)} after the ${soak.settleSeconds} s settle` : " (not settled)"),
    `- Heap held by stored data: ${signedMib(leak.dataBytes)} (${count(leak.dataBytes / Math.max(1, soak.recordsStored))} B per checkout)`,
    ...(soak.settleSeconds > 0 ? [`- Heap released by settling (the bus's duplicate window): ${signedMib(leak.windowBytes)}`] : []),
    `- Unexplained heap (settled − empty): ${signedMib(leak.unexplainedBytes)}, ${leak.bytesPerRequest.toFixed(1)} B per request → ${leak.unjudged ? `not judged: ${leak.unjudged}` : leak.check.met ? "no leak" : "possible leak"}`,
    "",
    "| t (s) | RSS | anonymous | file-backed | heap after GC |",
    "|---:|---:|---:|---:|---:|",
    ...soak.samples.map((sample) => `| ${sample.atSeconds} | ${mib(sample.rss)} | ${split(sample, "anonymous")} | ${split(sample, "file")} | ${mib(sample.heapUsed)} |`),
    "",
  );
  return lines;
}
