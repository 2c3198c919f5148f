import { floorBaseline, ratioBaseline, recordRows, type BenchResults, type MemoryOnlyResults } from "./bench-results.js";
import { deliverySection } from "./delivery-section.js";
import type { MachineInfo } from "./machine-info.js";
import { memoryAtScaleSection } from "./memory-at-scale/report-section.js";
import { count, mark, mib, ms } from "./report-format.js";
import { isValid, type Row } from "./row.js";
import { soakMemorySection } from "./soak-section.js";
import { anonymousGrowth, deliveryCheck, leakEstimate, recordsScaling, rowChecks, type TargetCheck } from "./targets.js";

function responses(row: Row): string {
  const tally = Object.entries(row.result.outcomes)
    .sort(([, a], [, b]) => b - a)
    .map(([outcome, times]) => `${outcome} ×${count(times)}`)
    .join(", ");
  return isValid(row) ? tally : `**INVALID**: ${row.problems.join("; ")} (all: ${tally || "none"})`;
}

/** The results as Markdown: a header naming the machine and settings, the table, the memory section. */
export function renderReport(results: BenchResults): string {
  const { machine, options, soak } = results;
  const lines: string[] = [];
  lines.push(`# Bayad benchmark${options.quick ? " (quick run)" : ""}`, "");
  lines.push(
    ...machineLines(machine),
    `- Each row: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s at ${options.connections} connections (pipelining 1)`,
    `- Soak: ${options.soakSeconds} s, settle ${options.settleSeconds} s; records sizes: ${options.recordCounts.map(count).join(", ")}`,
    `- Server processes: each baseline and the platform in its own process; autocannon in the benchmark's`,
    `- Ratios: each platform row over bare node:http measured right before it (the "node:http before" column); the other rows over the first row`,
    `- Write rows (2, 7, the soak) also over the durable floor measured right before them: node:http answering each POST after one awaited, group-committed LMDB write of a ~1 KB document on this machine's disk`,
    "",
  );

  lines.push(
    "| Scenario | req/s | p50 ms | p99 ms | node:http before | vs node:http | durable floor before | vs durable floor | target | responses |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
  );
  const row = (scenario: Row, checks: TargetCheck[]) => {
    const share = (baseline: number | undefined) => (baseline ? `${((scenario.result.requestsPerSecond / baseline) * 100).toFixed(1)} %` : "—");
    const before = (rps: number | undefined) => (rps === undefined ? "—" : count(rps));
    lines.push(
      `| ${scenario.label} | ${count(scenario.result.requestsPerSecond)} | ${ms(scenario.result.latency.p50)} | ${ms(scenario.result.latency.p99)} | ` +
        `${before(scenario.nodeHttpBefore)} | ${share(ratioBaseline(scenario, results))} | ${before(scenario.durableFloorBefore)} | ${share(floorBaseline(scenario))} | ` +
        `${checks.map(mark).join("; ") || "—"} | ${responses(scenario)} |`,
    );
  };
  const records = recordRows(results);
  for (const scenario of results.rows) {
    const checks = rowChecks(scenario, ratioBaseline(scenario, results), options.connections, floorBaseline(scenario));
    if (scenario === results.webhookDelivery.row) checks.push(deliveryCheck(results.webhookDelivery));
    row(scenario, checks);
    if (scenario === records[records.length - 1]) {
      const scaling = recordsScaling(records);
      if (scaling) {
        lines.push(
          `| 5 p50 at ${count(scaling.largest.recordsStored ?? Number.NaN)} ÷ p50 at ${count(scaling.smallest.recordsStored ?? Number.NaN)} records | — | ${scaling.ratio.toFixed(2)}× | — | — | — | — | — | ${mark(scaling.check)} | — |`,
        );
      }
    }
  }
  const anonymous = anonymousGrowth(soak);
  row(soak.row, [leakEstimate(soak).check, ...(anonymous ? [anonymous.check] : [])]);
  lines.push("", ...deliverySection(results.webhookDelivery), ...cpuSection(results.rows, results.machine.cores));
  lines.push(...soakMemorySection(soak, results.peakRss));
  if (results.memoryAtScale) lines.push(...memoryAtScaleSection(results.memoryAtScale));
  return lines.join("\n");
}

function machineLines(machine: MachineInfo): string[] {
  return [
    `- Date: ${machine.date}`,
    `- Commit: ${machine.commit}`,
    `- Node.js: ${machine.node}`,
    `- CPU: ${machine.cpu}, ${machine.cores} cores, ${mib(machine.memoryBytes)} memory; load average at start ${machine.loadAverage.toFixed(2)}`,
  ];
}

/** `--memory`: the memory-at-scale section alone, under the same header of machine and settings. */
export function renderMemoryReport(results: MemoryOnlyResults): string {
  const { machine, options } = results;
  return [
    `# Bayad benchmark: memory at scale${options.quick ? " (quick run)" : ""}`,
    "",
    ...machineLines(machine),
    `- Records page runs: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s at ${options.connections} connections (pipelining 1)`,
    "",
    ...memoryAtScaleSection(results.memoryAtScale),
  ].join("\n");
}

/**
 * CPU per request by thread for the rows that measured it, in microseconds: where a row's CPU
 * went, which its req/s alone cannot tell (a row is bound by its busiest thread and, on a machine
 * with few cores, by the sum of every thread, the load generator's included).
 */
export function cpuSection(rows: readonly Row[], cores: number): string[] {
  const measured = rows.filter((row) => row.cpu !== undefined);
  if (measured.length === 0) return [];
  const us = (value: number) => value.toFixed(0);
  const lines = [
    "## CPU per request (µs)",
    "",
    "Over each platform row's measured run (not its warm-up): each thread of the platform process from " +
      "`/proc/<pid>/task/<tid>/stat`, the load generator from the benchmark's own `process.cpuUsage()`. " +
      `With ${cores} cores, ${cores} s of CPU per second is all there is, for the platform and autocannon together.`,
    "",
    "| Scenario | gateway thread | services thread | other threads (GC helpers, libuv) | platform | load generator | all |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of measured) {
    const cpu = row.cpu!;
    const platform = cpu.gatewayUs + (cpu.servicesUs ?? 0) + cpu.otherUs;
    lines.push(
      `| ${row.label} | ${us(cpu.gatewayUs)} | ${cpu.servicesUs === null ? "(on the gateway thread)" : us(cpu.servicesUs)} | ${us(cpu.otherUs)} | ${us(platform)} | ${us(cpu.loadGeneratorUs)} | ${us(platform + cpu.loadGeneratorUs)} |`,
    );
  }
  lines.push("");
  return lines;
}
