import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { listOperations, loadOpenApiDocument } from "@bayad/gateway";
import type { BaselineReady } from "./baselines/baseline-response.js";
import { memoryOnlyJson, toJson, type BenchResults, type MemoryOnlyResults } from "./bench-results.js";
import { forkChild, stopAllChildren } from "./child-process.js";
import { parseOptions, usage, type BenchOptions } from "./cli-options.js";
import { machineInfo, type MachineInfo } from "./machine-info.js";
import { memoryAtScale } from "./memory-at-scale/run.js";
import { startPlatformProcess } from "./platform-handle.js";
import { platformRows } from "./platform-rows.js";
import { renderMemoryReport, renderReport } from "./report.js";
import { measureScenario, type Row } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";
import { baseline } from "./scenarios.js";
import { soak } from "./soak.js";

/**
 * `npm run bench`: the bare baselines (node:http, Koa, Koa with the gateway's routes), then the
 * platform's scenarios through the gateway, then the memory soak, then memory at scale (alone
 * with `--memory`); one report, printed and written to results/.
 */

const resultsDir = new URL("../results/", import.meta.url);

const routeCount = listOperations(loadOpenApiDocument()).length;
const baselines = [
  { id: "baseline.node-http", label: "node:http (bare)", module: "./baselines/node-http-server.js", path: "/" },
  { id: "baseline.koa", label: "Koa (bare)", module: "./baselines/koa-server.js", path: "/" },
  {
    id: "baseline.koa-router",
    label: `Koa + @koa/router, the gateway's ${routeCount} routes (bare)`,
    module: "./baselines/koa-router-server.js",
    // Scenario 1's route, so the router walks its table as far as it does for the gateway.
    path: "/api/v1/payments/capabilities",
  },
] as const;

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
  process.stdout.write(
    `Bayad benchmark (${options.quick ? "quick" : "full"}): ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per row ` +
      `at ${options.connections} connections; soak ${options.soakSeconds} s; memory at scale with ${options.memoryCheckouts.toLocaleString("en-US")} checkouts\n`,
  );

  const rows: Row[] = [];
  // Each server is measured alone: started, measured and stopped before the next one starts.
  for (const server of baselines) {
    const child = await forkChild<BaselineReady>(server.label, new URL(server.module, import.meta.url));
    rows.push(await measureScenario(child.ready.url, baseline(server.id, server.label, server.path), load));
    await child.stop();
  }

  const profileDir = options.profile ? fileURLToPath(new URL("profiles/", resultsDir)) : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  // Measured again before each platform row; idle (and so out of the way) in between.
  const nodeHttp = await forkChild<BaselineReady>("node:http", new URL(baselines[0].module, import.meta.url));
  const platform = await startPlatformProcess({ profileDir });
  process.stdout.write(`  platform ready at ${platform.gatewayUrl} (pid ${platform.pid})\n`);
  rows.push(...(await platformRows(platform, options, load, nodeHttp.ready.url)));
  await nodeHttp.stop();
  process.stdout.write(`  soak: scenario 2 for ${options.soakSeconds} s …\n`);
  const soakResult = await soak(platform, options.soakSeconds, options.settleSeconds, options.connections);
  const { peakRss } = await platform.memory();
  await platform.stop();
  process.stdout.write(`  memory at scale: ${options.memoryCheckouts.toLocaleString("en-US")} checkouts …\n`);
  const memoryAtScaleResult = await memoryAtScale(options.memoryCheckouts, load);

  const results: BenchResults = { machine, options, rows, soak: soakResult, peakRss, memoryAtScale: memoryAtScaleResult };
  const report = renderReport(results);
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
