import { describe, expect, it } from "vitest";
import type { BenchResults } from "./bench-results.js";
import { parseOptions } from "./cli-options.js";
import { cpuSection, renderReport } from "./report.js";
import type { Row } from "./row.js";
import { row as measuredRow, soakResult } from "./test-support/rows.js";

describe("cpuSection", () => {
  const row = (label: string, cpu: Row["cpu"]): Row => ({
    id: label,
    label,
    problems: [],
    cpu,
    result: {
      requestsPerSecond: 1,
      latency: { p50: 1, p99: 1, mean: 1, max: 1 },
      requests: 1,
      durationSeconds: 1,
      errors: 0,
      timeouts: 0,
      outcomes: {},
    },
  });

  it("shows each measured row's threads and totals, and leaves out rows without figures", () => {
    const lines = cpuSection(
      [
        row("2 POST /payments/checkouts (fresh key)", { gatewayUs: 150, servicesUs: 200, otherUs: 50, loadGeneratorUs: 60 }),
        row("node:http (bare)", undefined),
        row("1 GET /payments/capabilities", { gatewayUs: 40, servicesUs: null, otherUs: 5, loadGeneratorUs: 20 }),
      ],
      2,
    );
    expect(lines).toContain("| 2 POST /payments/checkouts (fresh key) | 150 | 200 | 50 | 400 | 60 | 460 |");
    expect(lines).toContain("| 1 GET /payments/capabilities | 40 | (on the gateway thread) | 5 | 45 | 20 | 65 |");
    expect(lines.join("\n")).not.toContain("node:http (bare)");
  });

  it("is empty when no row was measured (no /proc)", () => {
    expect(cpuSection([row("1 GET /payments/capabilities", undefined)], 2)).toEqual([]);
  });
});

describe("renderReport", () => {
  const options = parseOptions([]);
  if (options === "help") throw new Error("unreachable");
  const results = (overrides: Partial<BenchResults> = {}): BenchResults => {
    const delivered = measuredRow("s7.webhook-delivery", 2_000, 28, { nodeHttpBefore: 40_000, durableFloorBefore: 10_000 });
    return {
      machine: { date: "2026-11-28T09:00:00.000Z", commit: "abc1234", node: "v20.20.2", cpu: "AMD EPYC", cores: 2, memoryBytes: 8 * 1024 ** 3, loadAverage: 0.5 },
      options,
      rows: [
        measuredRow("baseline.node-http", 48_000),
        measuredRow("baseline.durable-floor", 9_000, 6),
        measuredRow("s1.capabilities", 15_000, 5, { nodeHttpBefore: 50_000 }),
        measuredRow("s2.create-checkout", 2_500, 28, { nodeHttpBefore: 50_000, durableFloorBefore: 8_000 }),
        delivered,
      ],
      soak: soakResult({ emptyMib: 300, withDataMib: 352, settledMib: 304 }, { row: measuredRow("soak.create-checkout", 1_000, 40, { nodeHttpBefore: 40_000, durableFloorBefore: 8_000 }) }),
      webhookDelivery: {
        row: delivered,
        paid: 190,
        probeProblems: {},
        delivered: 189,
        missing: 1,
        unverified: 0,
        duplicates: 2,
        unexpected: 0,
        latencyMs: { p50: 45, p99: 420, mean: 60, max: 800 },
      },
      peakRss: 2_000 * 1024 * 1024,
      ...overrides,
    };
  };
  const tableRow = (report: string, label: string) => report.split("\n").find((line) => line.startsWith(`| ${label} |`));

  it("shows the durable floor beside node:http, and each write row's ratio to the floor measured before it", () => {
    const report = renderReport(results());
    expect(tableRow(report, "baseline.durable-floor")).toContain("| 9,000 | 3.00 | 6.00 | — | 18.8 % | — | — |");
    expect(tableRow(report, "s2.create-checkout")).toContain(
      "| 50,000 | 5.0 % | 8,000 | 31.3 % | ≥ 25 % of the durable floor ✔; ≥ 5 % of node:http ✔; p99 ≤ 30 ms at 32 connections ✔ |",
    );
    expect(tableRow(report, "s1.capabilities")).toContain("| 50,000 | 30.0 % | — | — | ≥ 30 % of node:http ✔;");
    expect(tableRow(report, "soak.create-checkout")).toContain("| 40,000 | 2.5 % | 8,000 | 12.5 % |");
  });

  it("judges scenario 7 by its deliveries, in its row and in its own section", () => {
    const report = renderReport(results());
    expect(tableRow(report, "s7.webhook-delivery")).toContain("delivery p99 ≤ 1 s, none missing ✘");
    expect(report).toContain("- Deliveries: 189 arrived signed, 1 missing, 0 failed verification, 2 duplicates, 0 about other resources");
    expect(report).toContain("- Latency: p50 45.00 ms, p99 420.00 ms, max 800.00 ms → delivery p99 ≤ 1 s, none missing ✘");
  });

  it("splits the soak's memory into anonymous and file-backed pages, judging the anonymous growth", () => {
    const report = renderReport(results());
    expect(report).toContain("300.0 MiB before → 352.0 MiB right after the load (+52.0 MiB, the duplicate window included) → 304.0 MiB settled: +4.0 MiB over the start → anonymous growth < 10 MiB ✔");
    expect(report).toContain("100.0 MiB before → 900.0 MiB right after the load (+800.0 MiB)");
    expect(report).toContain(
      "- Where the anonymous memory's +4.0 MiB went (settled − before, each after GC): V8's heaps +1.0 MiB (their resident pages, used or kept), what V8's objects hold outside them (Buffers, ArrayBuffers) +0.0 MiB, the rest, roughly (malloc, stacks, code; V8 counts pages it committed) +3.0 MiB",
    );
    expect(report).toContain("| 0 | 400.0 MiB | 300.0 MiB | 100.0 MiB | 60.0 MiB |");
    expect(tableRow(report, "soak.create-checkout")).toContain("anonymous growth < 10 MiB ✔");
  });
});
