import { runLoad, type LoadResult, type LoadSettings } from "./run-autocannon.js";
import type { Scenario } from "./scenarios.js";
import type { CpuMeter, CpuPerRequest } from "./thread-cpu.js";

/** One measured row of the table. */
export interface Row extends Denominators {
  id: string;
  label: string;
  result: LoadResult;
  /** Why the row is invalid (unexpected outcomes, requests without a response); empty when valid. */
  problems: string[];
  /** Scenario 5: how many payment records were stored while it ran. */
  recordsStored?: number;
  /** The platform's rows: CPU per request by thread over the measured run (not the warm-up). */
  cpu?: CpuPerRequest;
}

/**
 * The baselines measured right before a platform row, with the same settings (paired-baselines.ts):
 * its denominators, so that the machine's drift over the run cancels out. Absent when not
 * measured, or when that baseline's run was invalid.
 */
export interface Denominators {
  /** Bare node:http's requests/s (see ratioBaseline). */
  nodeHttpBefore?: number;
  /** The durable floor's requests/s: write rows only (see floorBaseline). */
  durableFloorBefore?: number;
}

export function isValid(row: Row): boolean {
  return row.problems.length === 0;
}

/**
 * Runs `scenario` against `baseUrl` with warm-up, and judges its outcomes; `cpu` measures the
 * server's threads; `alongside` is called when the measured run starts (after the warm-up).
 */
export async function measureScenario(baseUrl: string, scenario: Scenario, settings: LoadSettings, cpu?: CpuMeter, alongside?: () => void): Promise<Row> {
  process.stdout.write(`  ${scenario.label} …`);
  let stop: ReturnType<CpuMeter> | undefined;
  const result = await runLoad(baseUrl, scenario.plan, settings, () => {
    if (cpu) stop = cpu();
    alongside?.();
  });
  const row: Row = { id: scenario.id, label: scenario.label, result, problems: problemsOf(result, scenario.expected) };
  const used = stop?.(result.requests);
  if (used) row.cpu = used;
  process.stdout.write(
    ` ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latency.p50.toFixed(2)} ms, p99 ${result.latency.p99.toFixed(2)} ms` +
      `${isValid(row) ? "" : ` — INVALID: ${row.problems.join("; ")}`}\n`,
  );
  return row;
}

/** Every outcome outside `expected`, and every request that got no response. */
export function problemsOf(result: LoadResult, expected: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [outcome, count] of Object.entries(result.outcomes)) {
    if (!expected.includes(outcome)) problems.push(`${outcome} ×${count}`);
  }
  if (result.errors > 0) problems.push(`${result.errors} without response (${result.timeouts} timeouts)`);
  if (result.requests === 0) problems.push("no responses at all");
  return problems;
}
