import type { BenchOptions } from "./cli-options.js";
import type { MachineInfo } from "./machine-info.js";
import { memoryAtScaleFigures } from "./memory-at-scale/figures.js";
import type { MemoryAtScaleResult } from "./memory-at-scale/result.js";
import { isValid, type Row } from "./row.js";
import type { SoakResult } from "./soak.js";
import { anonymousGrowth, deliveryCheck, leakEstimate, recordsScaling, rowChecks } from "./targets.js";
import type { WebhookDeliveryResult } from "./webhook-scenario.js";

/** Everything one run measured, in table order. */
export interface BenchResults {
  machine: MachineInfo;
  options: BenchOptions;
  rows: Row[];
  soak: SoakResult;
  /** Scenario 7's deliveries (its row is in `rows`). */
  webhookDelivery: WebhookDeliveryResult;
  /** The platform process's peak RSS over the whole run. */
  peakRss: number;
  /** Memory at scale, a run of its own after the soak. */
  memoryAtScale?: MemoryAtScaleResult;
}

/** `--memory`: only the memory-at-scale section. */
export interface MemoryOnlyResults {
  machine: MachineInfo;
  options: BenchOptions;
  memoryAtScale: MemoryAtScaleResult;
}

export const nodeHttpRowId = "baseline.node-http";

/** Requests/s of the bare node:http row of this run, the denominator of every ratio. */
export function nodeHttpRps(results: BenchResults): number | undefined {
  const row = results.rows.find((candidate) => candidate.id === nodeHttpRowId);
  return row && isValid(row) ? row.result.requestsPerSecond : undefined;
}

/**
 * The denominator of `row`'s ratio: node:http measured right before it when it was, else the
 * run's node:http row.
 */
export function ratioBaseline(row: Row, results: BenchResults): number | undefined {
  return row.nodeHttpBefore ?? nodeHttpRps(results);
}

export const durableFloorRowId = "baseline.durable-floor";

/**
 * The denominator of `row`'s ratio to the durable floor: the floor measured right before it,
 * which only the rows that write have (paired-baselines.ts).
 */
export function floorBaseline(row: Row): number | undefined {
  return row.durableFloorBefore;
}

export function recordRows(results: BenchResults): Row[] {
  return results.rows.filter((row) => row.id.startsWith("s5."));
}

/**
 * The results as JSON for comparing commits: raw figures plus the derived ones (ratios, target
 * verdicts), so a comparison script needs no knowledge of how they are computed.
 */
export function toJson(results: BenchResults): unknown {
  const scaling = recordsScaling(recordRows(results));
  const leak = leakEstimate(results.soak);
  const ratioOf = (row: Row, baseline: number | undefined) => (baseline ? row.result.requestsPerSecond / baseline : null);
  const rowJson = (row: Row) => ({
    id: row.id,
    label: row.label,
    valid: isValid(row),
    problems: row.problems,
    requestsPerSecond: row.result.requestsPerSecond,
    latencyMs: row.result.latency,
    nodeHttpBefore: row.nodeHttpBefore ?? null,
    vsNodeHttp: ratioOf(row, ratioBaseline(row, results)),
    durableFloorBefore: row.durableFloorBefore ?? null,
    vsDurableFloor: ratioOf(row, floorBaseline(row)),
    requests: row.result.requests,
    durationSeconds: row.result.durationSeconds,
    errors: row.result.errors,
    timeouts: row.result.timeouts,
    outcomes: row.result.outcomes,
    cpuPerRequest: row.cpu ?? null,
    targets: rowChecks(row, ratioBaseline(row, results), results.options.connections, floorBaseline(row)),
  });
  return {
    machine: results.machine,
    options: results.options,
    rows: results.rows.map(rowJson),
    recordsScaling: scaling
      ? { smallest: scaling.smallest.id, largest: scaling.largest.id, p50Ratio: scaling.ratio, target: scaling.check }
      : null,
    memory: {
      peakRssBytes: results.peakRss,
      soak: {
        seconds: results.soak.seconds,
        row: rowJson(results.soak.row),
        checkoutsCreated: results.soak.checkoutsCreated,
        recordsStored: results.soak.recordsStored,
        empty: results.soak.empty,
        withData: results.soak.withData,
        dropped: results.soak.dropped,
        settled: results.soak.settled,
        settleSeconds: results.soak.settleSeconds,
        samples: results.soak.samples,
        leak,
        anonymousGrowth: anonymousGrowth(results.soak) ?? null,
      },
    },
    webhookDelivery: webhookDeliveryJson(results.webhookDelivery),
    memoryAtScale: results.memoryAtScale ? memoryAtScaleJson(results.memoryAtScale) : null,
  };
}

/** The memory-at-scale readings (each phase's page row with its raw figures) and what they derive, verdicts included. */
export function memoryAtScaleJson(result: MemoryAtScaleResult): unknown {
  return { ...result, figures: memoryAtScaleFigures(result) };
}

export function memoryOnlyJson(results: MemoryOnlyResults): unknown {
  return { machine: results.machine, options: results.options, memoryAtScale: memoryAtScaleJson(results.memoryAtScale) };
}

/** Scenario 7's figures without its row (which is in `rows`), with its verdict. */
function webhookDeliveryJson(delivery: WebhookDeliveryResult): unknown {
  const { row, ...figures } = delivery;
  return { rowId: row.id, ...figures, target: deliveryCheck(delivery) };
}
