import { runLoad, type LoadResult, type LoadSettings } from "./run-autocannon.js";
import type { Scenario } from "./scenarios.js";
import type { CpuMeter, CpuPerRequest } from "./thread-cpu.js";

/** One measured row of the table. */
export interface Row {
  id: string;
  label: string;
  result: LoadResult;
  /** Why the row is invalid (unexpected outcomes, requests without a response); empty when valid. */
  problems: string[];
  /** Scenario 5: how many payment records were stored while it ran. */
  recordsStored?: number;
  /**
   * Bare node:http's requests/s measured right before this row, with the same settings: this
   * row's denominator (see ratioBaseline), so that the machine's drift over the run cancels out.
   */
  nodeHttpBefore?: number;
  /** The platform's rows: CPU per request by thread over the measured run (not the warm-up). */
  cpu?: CpuPerRequest;
}

export function isValid(row: Row): boolean {
  return row.problems.length === 0;
}

/** Runs `scenario` against `baseUrl` with warm-up, and judges its outcomes; `cpu` measures the server's threads. */
export async function measureScenario(baseUrl: string, scenario: Scenario, settings: LoadSettings, cpu?: CpuMeter): Promise<Row> {
  process.stdout.write(`  ${scenario.label} …`);
  let stop: ReturnType<CpuMeter> | undefined;
  const result = await runLoad(baseUrl, scenario.plan, settings, cpu && (() => (stop = cpu())));
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
