import { isValid } from "../row.js";
import { count, mark, mib, signedMib } from "../report-format.js";
import type { ReportsAtScaleResult } from "./run.js";

/** Issue 45's targets; shown, never asserted (bench/README.md). */
export const reportsTargets = {
  summaryP99Ms: 50,
  exportRowsPerSecond: 50_000,
  /** How far above the heap before the export its largest reading during it may be: "flat". */
  exportHeapGrowthMaxBytes: 64 * 1_048_576,
};

/** The heading the section starts with: `--reports` replaces the section under it in latest.md. */
export const reportsHeading = "## Reports at scale";

/** The largest heap reading during the export, less the reading right before it. */
export function exportHeapGrowth(result: ReportsAtScaleResult): number {
  const { heapSamples, heapBefore } = result.exportMemory;
  return heapSamples.length === 0 ? 0 : Math.max(...heapSamples) - heapBefore;
}

export function reportsAtScaleSection(result: ReportsAtScaleResult, commit: string): string[] {
  const load = result.summaryLoad;
  const p99 = load.result.latency.p99;
  const rowsPerSecond = result.exportSpeed.rows / result.exportSpeed.seconds;
  const growth = exportHeapGrowth(result);
  const searchFound = result.search.found.length === 1 && result.search.found[0] === result.search.expected;
  return [
    `${reportsHeading}: ${count(result.records)} payment records stored (${commit})`,
    "",
    "The platform on one DATA_DIR, seeded with payment records straight into its records store (checkouts, intents and refunds of " +
      "every status, method and provider account, created over 40 days), started, its totals rebuilt from the records " +
      "(`POST /admin/v1/projects/{id}/payment-totals/rebuild`), then measured through the gateway. " +
      "`npm run test:reports-scale` runs the same and asserts the checks below.",
    "",
    "| | measured | target |",
    "|---|---:|---|",
    `| summary, 30 days by day: p99 | ${isValid(load) ? `${p99.toFixed(2)} ms (p50 ${load.result.latency.p50.toFixed(2)} ms, ${count(load.result.requestsPerSecond)} req/s)` : `INVALID: ${load.problems.join("; ")}`} | ${mark({ text: `≤ ${reportsTargets.summaryP99Ms} ms`, met: isValid(load) ? p99 <= reportsTargets.summaryP99Ms : undefined })} |`,
    `| the same split by method and provider account (shown, not judged): p99 | ${isValid(result.summaryGroupedLoad) ? `${result.summaryGroupedLoad.result.latency.p99.toFixed(2)} ms (p50 ${result.summaryGroupedLoad.result.latency.p50.toFixed(2)} ms)` : `INVALID: ${result.summaryGroupedLoad.problems.join("; ")}`} | — |`,
    `| the 30-day summary equals the seeder's own totals (every day and the total) | ${result.summary.mismatches.length === 0 ? "equal" : `${result.summary.mismatches.length} differences: ${result.summary.mismatches.slice(0, 3).join("; ")}`} | ${mark({ text: "equal", met: result.summary.mismatches.length === 0 })} |`,
    `| export of every record (CSV) | ${count(result.exportSpeed.rows)} rows in ${result.exportSpeed.seconds.toFixed(1)} s: ${count(rowsPerSecond)} rows/s | ${mark({ text: `≥ ${count(reportsTargets.exportRowsPerSecond)} rows/s`, met: result.exportSpeed.rows === result.records ? rowsPerSecond >= reportsTargets.exportRowsPerSecond : false })} |`,
    `| platform heap during the export (after forced collections, about four times a second) | before ${mib(result.exportMemory.heapBefore)}, largest ${signedMib(growth)} over ${result.exportMemory.heapSamples.length} readings | ${mark({ text: `flat (< ${mib(reportsTargets.exportHeapGrowthMaxBytes)} growth)`, met: growth < reportsTargets.exportHeapGrowthMaxBytes })} |`,
    `| metadata search (\`metadata=key=value\`) for one record among all | ${searchFound ? "found it alone" : `found ${result.search.found.length}`}, median ${result.search.milliseconds.toFixed(1)} ms of 20 | ${mark({ text: "finds it", met: searchFound })} |`,
    "",
    `- Seeding: ${count(result.records)} records in ${result.seeding.seconds.toFixed(1)} s; rebuilding the totals: ${count(result.rebuild.recordsRead)} records read, ` +
      `${count(result.rebuild.totalsWritten)} totals written, in ${result.rebuild.seconds.toFixed(1)} s`,
    "",
  ];
}
