import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { baselineServers, startBaseline } from "./baseline-servers.js";
import { memoryOnlyJson, toJson, type BenchResults, type MemoryOnlyResults } from "./bench-results.js";
import { stopAllChildren } from "./child-process.js";
import { parseOptions, usage, type BenchOptions } from "./cli-options.js";
import { machineInfo, type MachineInfo } from "./machine-info.js";
import { memoryAtScale } from "./memory-at-scale/run.js";
import { reportsAtScaleSection, reportsHeading } from "./reports-at-scale/report-section.js";
import { reportsAtScale } from "./reports-at-scale/run.js";
import { startPlatformProcess, type PlatformHandle } from "./platform-handle.js";
import { startPairedBaselines } from "./paired-baselines.js";
import { platformRows, type PlatformRows } from "./platform-rows.js";
import { renderMemoryReport, renderReport } from "./report.js";
import { measureScenario, type Row } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";
import { soak } from "./soak.js";

/**
 * `npm run bench`: the baselines (bare node:http, the durable floor, Koa, Koa with the gateway's
 * routes), then the platform's scenarios through the gateway, then the memory soak, then memory
 * at scale (alone with `--memory`); one report, printed and written to results/.
 */

const resultsDir = new URL("../results/", import.meta.url);

async function main(): Promise<void> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exitCode = 2;
    return;
  }
  if (options === "help") {
    process.stdout.write(usage);
    return;
  }
  const machine = machineInfo(new Date());
  const load: LoadSettings = { connections: options.connections, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds };
  if (options.memoryOnly) {
    await memoryOnly(machine, options, load);
    return;
  }
  if (options.reportsOnly) {
    await reportsOnly(machine, options, load);
    return;
  }
  process.stdout.write(
    `Bayad benchmark (${options.quick ? "quick" : "full"}): ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per row ` +
      `at ${options.connections} connections; soak ${options.soakSeconds} s; memory at scale with ${options.memoryCheckouts.toLocaleString("en-US")} checkouts\n`,
  );

  const rows: Row[] = [];
  // Each server is measured alone: started, measured and stopped before the next one starts.
  for (const server of baselineServers) {
    const running = await startBaseline(server);
    rows.push(await measureScenario(running.url, server.scenario, load));
    await running.stop();
  }

  const profileDir = options.profile ? fileURLToPath(new URL("profiles/", resultsDir)) : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const platformResults = await measurePlatform(options, load, profileDir);
  rows.push(...platformResults.rows);
  process.stdout.write(`  memory at scale: ${options.memoryCheckouts.toLocaleString("en-US")} checkouts …\n`);
  const memoryAtScaleResult = await memoryAtScale(options.memoryCheckouts, load);
  process.stdout.write(`  reports at scale: ${options.reportsRecords.toLocaleString("en-US")} payment records …\n`);
  const reportsSection = reportsAtScaleSection(await reportsAtScale(options.reportsRecords, load), machine.commit);

  const results: BenchResults = { machine, options, rows, soak: platformResults.soak, webhookDelivery: platformResults.webhookDelivery, peakRss: platformResults.peakRss, memoryAtScale: memoryAtScaleResult };
  const report = `${renderReport(results).trimEnd()}\n\n${reportsSection.join("\n")}`;
  process.stdout.write(`\n${report}\n`);
  await mkdir(resultsDir, { recursive: true });
  const reportFile = new URL(options.quick ? "quick.md" : "latest.md", resultsDir);
  await writeFile(reportFile, report);
  process.stdout.write(`Written to ${fileURLToPath(reportFile)}\n`);
  if (options.jsonPath) {
    await writeFile(options.jsonPath, `${JSON.stringify(toJson(results), null, 2)}\n`);
    process.stdout.write(`JSON written to ${options.jsonPath}\n`);
  }
  if (profileDir) process.stdout.write(`CPU profile of the platform in ${profileDir}\n`);
}

/**
 * The platform's part of the run: scenarios 1–7 and the soak, each row after its denominators
 * (paired-baselines.ts), and the platform's peak RSS at the end.
 */
async function measurePlatform(
  options: BenchOptions,
  load: LoadSettings,
  profileDir: string | undefined,
): Promise<PlatformRows & Pick<BenchResults, "soak" | "peakRss">> {
  // Measured again before each platform row; idle (and so out of the way) in between.
  const paired = await startPairedBaselines(load);
  // The platform keeps its stores on this machine's disk, as `npm start` does with DATA_DIR, so
  // that its writes wait for the disk as the durable floor's do (temporary stores never flush).
  const dataDir = await mkdtemp(join(tmpdir(), "bayad-bench-data-"));
  let platform: PlatformHandle | undefined;
  try {
    platform = await startPlatformProcess({ profileDir, dataDir });
    process.stdout.write(`  platform ready at ${platform.gatewayUrl} (pid ${platform.pid}), DATA_DIR ${dataDir}\n`);
    const measured = await platformRows(platform, options, load, paired);
    process.stdout.write(`  soak: scenario 2 for ${options.soakSeconds} s …\n`);
    const soakResult = await soak(platform, options.soakSeconds, options.settleSeconds, options.connections, paired);
    const { peakRss } = await platform.memory();
    return { ...measured, soak: soakResult, peakRss };
  } finally {
    // A platform that died is reported by the failure itself; its stop must not hide that.
    await platform?.stop().catch(() => {});
    await paired.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `--memory`: the memory-at-scale section alone, written to results/memory.md (git-ignored). */
async function memoryOnly(machine: MachineInfo, options: BenchOptions, load: LoadSettings): Promise<void> {
  process.stdout.write(`Memory at scale: ${options.memoryCheckouts.toLocaleString("en-US")} checkouts stored; records page runs of ${options.warmupSeconds} s + ${options.durationSeconds} s\n`);
  const results: MemoryOnlyResults = { machine, options, memoryAtScale: await memoryAtScale(options.memoryCheckouts, load) };
  const report = renderMemoryReport(results);
  process.stdout.write(`\n${report}\n`);
  await mkdir(resultsDir, { recursive: true });
  const reportFile = new URL("memory.md", resultsDir);
  await writeFile(reportFile, report);
  process.stdout.write(`Written to ${fileURLToPath(reportFile)}\n`);
  if (options.jsonPath) {
    await writeFile(options.jsonPath, `${JSON.stringify(memoryOnlyJson(results), null, 2)}\n`);
    process.stdout.write(`JSON written to ${options.jsonPath}\n`);
  }
}

/**
 * `--reports`: the reports-at-scale section alone, written to results/reports.md, and put in
 * place of the same section of results/latest.md (its heading names the commit it was measured
 * on), so the latest figures of issue 45's targets stay beside the others without a full run.
 */
async function reportsOnly(machine: MachineInfo, options: BenchOptions, load: LoadSettings): Promise<void> {
  process.stdout.write(`Reports at scale: ${options.reportsRecords.toLocaleString("en-US")} payment records stored\n`);
  const section = reportsAtScaleSection(await reportsAtScale(options.reportsRecords, load), machine.commit).join("\n");
  process.stdout.write(`\n${section}\n`);
  await mkdir(resultsDir, { recursive: true });
  await writeFile(new URL("reports.md", resultsDir), `# Bayad benchmark: reports at scale (${machine.date})\n\n${section}`);
  if (options.quick) return;
  const latestFile = new URL("latest.md", resultsDir);
  const latest = await readFile(latestFile, "utf8");
  const start = latest.indexOf(`${reportsHeading}:`);
  const next = start === -1 ? -1 : latest.indexOf("\n## ", start + 1);
  const before = start === -1 ? `${latest.trimEnd()}\n\n` : latest.slice(0, start);
  const after = next === -1 ? "" : latest.slice(next + 1);
  await writeFile(latestFile, `${before}${section}${after === "" ? "" : `\n${after}`}`);
  process.stdout.write(`Written to results/reports.md and into ${fileURLToPath(latestFile)}\n`);
}

/**
 * Ctrl-C or a kill stops the servers before the benchmark exits (the platform gracefully, so a
 * CPU profile is still written); a failure does the same, reports and exits 1.
 */
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    process.stdout.write(`\n${signal}: stopping the servers…\n`);
    void stopAllChildren().finally(() => process.exit(code));
  });
}

main().then(
  () => stopAllChildren(),
  async (error: unknown) => {
    process.stderr.write(`\nbenchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await stopAllChildren();
    process.exit(1);
  },
);
