import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callApi } from "../api-client.js";
import { startPlatformProcess, type PlatformHandle } from "../platform-handle.js";
import { measureScenario, type Row } from "../row.js";
import type { LoadSettings } from "../run-autocannon.js";
import type { Scenario } from "../scenarios.js";
import { seedRecordsStore, type SeededRecords } from "./seed-records-store.js";
import { manilaDay, needle, zeroTotals, type Totals } from "./seeded-records.js";

/** The summary's range, as the issue's target names it. */
export const summaryDays = 30;
/** Records are seeded over more days than the summary reads, so the range cuts through them. */
const seededDays = 40;

export interface ExportRun {
  rows: number;
  seconds: number;
  /** Heap after forced collections, read about four times a second while the export streamed (bytes); empty when not sampled. */
  heapSamples: number[];
  /** The heap, read the same way, right before the export began. */
  heapBefore: number;
}

export interface ReportsAtScaleResult {
  records: number;
  seeding: { seconds: number };
  rebuild: { seconds: number; recordsRead: number; totalsWritten: number };
  /** The 30-day summary compared with the seeder's own totals: every day and the grand total. */
  summary: { from: string; to: string; mismatches: string[]; total: Totals };
  /** The summary the dashboard's overview asks for by default: 30 days by day (the target's row). */
  summaryLoad: Row;
  /** The same split by method and provider account (every day × group in the answer): shown, not judged. */
  summaryGroupedLoad: Row;
  /** `milliseconds`: the median of 20 searches after one to warm up. */
  search: { found: string[]; expected: string; milliseconds: number };
  exportSpeed: ExportRun;
  exportMemory: ExportRun;
}

/**
 * Reports at scale (issue 45): the platform on one DATA_DIR (temporary, removed at the end),
 * started once empty to learn its project, stopped, seeded with `records` payment records straight
 * into its records store, started again; then its totals rebuilt from the records, the 30-day
 * summary checked day by day against the seeder's totals and measured under load, a metadata
 * search, and the whole export streamed twice (once for speed, once with the heap read).
 */
export async function reportsAtScale(records: number, load: LoadSettings, log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<ReportsAtScaleResult> {
  const dataDir = await mkdtemp(join(tmpdir(), "bayad-bench-reports-"));
  let platform: PlatformHandle | undefined;
  try {
    platform = await startPlatformProcess({ dataDir });
    const projectId = platform.projectId;
    await platform.stop();
    platform = undefined;

    const now = new Date();
    log(`  seeding ${records.toLocaleString("en-US")} payment records into the records store …`);
    const seeded = await seedRecordsStore(dataDir, projectId, records, seededDays, now, (count) => {
      if (count % 100_000 === 0) log(`    ${count.toLocaleString("en-US")}`);
    });
    log(`  seeded in ${seeded.seconds.toFixed(1)} s (${Math.round(records / seeded.seconds).toLocaleString("en-US")}/s)`);

    platform = await startPlatformProcess({ dataDir });
    const rebuild = await rebuildTotals(platform);
    log(`  totals rebuilt from ${rebuild.recordsRead.toLocaleString("en-US")} records in ${rebuild.seconds.toFixed(1)} s`);
    const summary = await checkSummary(platform, seeded, now);
    log(`  summary of ${summary.from}..${summary.to}: ${summary.mismatches.length === 0 ? "equal to the seeder's totals" : `${summary.mismatches.length} mismatches`}`);
    const summaryLoad = await measureScenario(platform.gatewayUrl, summaryScenario(platform.testApiKey, summary.from, summary.to, false), load);
    const summaryGroupedLoad = await measureScenario(platform.gatewayUrl, summaryScenario(platform.testApiKey, summary.from, summary.to, true), load);
    const search = await searchNeedle(platform, seeded.needleId);
    log(`  metadata search: ${search.found.length} found in ${search.milliseconds.toFixed(1)} ms`);
    const exportSpeed = await streamExport(platform, false);
    log(`  export: ${exportSpeed.rows.toLocaleString("en-US")} rows in ${exportSpeed.seconds.toFixed(1)} s (${Math.round(exportSpeed.rows / exportSpeed.seconds).toLocaleString("en-US")} rows/s)`);
    const exportMemory = await streamExport(platform, true);
    log(`  export with the heap read: largest heap ${mib(Math.max(...exportMemory.heapSamples, exportMemory.heapBefore))} MiB, before ${mib(exportMemory.heapBefore)} MiB`);
    return { records, seeding: { seconds: seeded.seconds }, rebuild, summary, summaryLoad, summaryGroupedLoad, search, exportSpeed, exportMemory };
  } finally {
    await platform?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);

async function rebuildTotals(platform: PlatformHandle): Promise<ReportsAtScaleResult["rebuild"]> {
  const started = performance.now();
  const answer = await callApi<{ recordsRead: number; totalsWritten: number }>(
    platform.gatewayUrl,
    "POST",
    `/admin/v1/projects/${platform.projectId}/payment-totals/rebuild`,
    { credential: platform.adminApiKey, body: { environment: "test" } },
  );
  if (answer.status !== 200) throw new Error(`rebuilding the totals answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return { seconds: (performance.now() - started) / 1000, ...answer.body.data };
}

interface SummaryTotals {
  paidCount: number;
  paidMinor: string;
  failedCount: number;
  failedMinor: string;
  refundedCount: number;
  refundedMinor: string;
  feeMinor: string;
  netMinor: string;
  unreportedFeeCount: number;
}

/** Every field of `actual` (the API's) against `expected` (the seeder's); one line per difference. */
function differences(where: string, actual: SummaryTotals | undefined, expected: Totals): string[] {
  if (actual === undefined) return [`${where}: missing`];
  return (Object.keys(expected) as (keyof Totals)[])
    .filter((field) => Number(actual[field]) !== expected[field])
    .map((field) => `${where} ${field}: ${String(actual[field])}, expected ${expected[field]}`);
}

async function checkSummary(platform: PlatformHandle, seeded: SeededRecords, now: Date): Promise<ReportsAtScaleResult["summary"]> {
  const to = manilaDay(now);
  const from = manilaDay(new Date(now.getTime() - (summaryDays - 1) * 86_400_000));
  const answer = await callApi<{ periods: { start: string; end: string; totals: SummaryTotals }[]; total: SummaryTotals }>(
    platform.gatewayUrl,
    "GET",
    `/api/v1/payments/reports/summary?from=${from}&to=${to}&granularity=day`,
    { credential: platform.testApiKey },
  );
  if (answer.status !== 200) throw new Error(`the summary answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  const total = zeroTotals();
  const mismatches: string[] = [];
  const periods = new Map(answer.body.data.periods.map((period) => [period.start, period]));
  for (const [day, totals] of seeded.byDay) {
    if (day < from || day > to) continue;
    for (const field of Object.keys(total) as (keyof Totals)[]) total[field] += totals[field];
    mismatches.push(...differences(day, periods.get(day)?.totals, totals));
  }
  mismatches.push(...differences("total", answer.body.data.total, total));
  return { from, to, mismatches, total };
}

function summaryScenario(apiKey: string, from: string, to: string, grouped: boolean): Scenario {
  return {
    id: grouped ? "reports.summary-grouped" : "reports.summary",
    label: `GET /payments/reports/summary (${summaryDays} days by day${grouped ? ", method and account" : ""})`,
    plan: {
      method: "GET",
      path: `/api/v1/payments/reports/summary?from=${from}&to=${to}&granularity=day${grouped ? "&groupBy=payment_method,provider_account" : ""}`,
      headers: { Authorization: `Bearer ${apiKey}` },
    },
    expected: ["200"],
  };
}

/** The search, once to warm up and then 20 times in a row: its answer, and the median of the 20. */
async function searchNeedle(platform: PlatformHandle, expected: string): Promise<ReportsAtScaleResult["search"]> {
  const path = `/api/v1/payments/records?metadata=${encodeURIComponent(`${needle.key}=${needle.value}`)}`;
  const search = async () => {
    const answer = await callApi<{ records: { id: string }[] }>(platform.gatewayUrl, "GET", path, { credential: platform.testApiKey });
    if (answer.status !== 200) throw new Error(`the metadata search answered ${answer.status}`);
    return answer.body.data.records.map((record) => record.id);
  };
  await search();
  const times: number[] = [];
  let found: string[] = [];
  for (let run = 0; run < 20; run++) {
    const started = performance.now();
    found = await search();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { found, expected, milliseconds: times[times.length / 2] ?? Number.NaN };
}

/**
 * Streams the whole export, counting its rows (record terminators outside quoted cells, less the
 * header); with `readHeap`, the platform's heap is read about four times a second meanwhile (each
 * reading forces collections, which slows the stream: hence two runs).
 */
async function streamExport(platform: PlatformHandle, readHeap: boolean): Promise<ExportRun> {
  const heapBefore = readHeap ? (await platform.memory()).heapUsed : 0;
  const heapSamples: number[] = [];
  let sampling = readHeap;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (sampling) heapSamples.push((await platform.memory()).heapUsed);
    }
  })();
  const started = performance.now();
  const response = await fetch(`${platform.gatewayUrl}/api/v1/payments/records/export`, { headers: { Authorization: `Bearer ${platform.testApiKey}` } });
  if (response.status !== 200 || response.body === null) throw new Error(`the export answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  let terminators = 0;
  let quoted = false;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    // Bytes, not text: `"` and LF never occur inside a UTF-8 sequence, and the native search
    // keeps this process (which shares the machine's cores with the platform) out of the way.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let at = 0; ; ) {
      const quote = bytes.indexOf(34, at);
      if (quoted) {
        if (quote === -1) break;
        quoted = false;
        at = quote + 1;
        continue;
      }
      const newline = bytes.indexOf(10, at);
      if (newline !== -1 && (quote === -1 || newline < quote)) {
        terminators += 1;
        at = newline + 1;
      } else if (quote !== -1) {
        quoted = true;
        at = quote + 1;
      } else break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  return { rows: terminators - 1, seconds, heapSamples, heapBefore };
}
