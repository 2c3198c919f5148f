import { describe, expect, it } from "vitest";
import { memoryOnlyJson } from "../bench-results.js";
import type { BenchOptions } from "../cli-options.js";
import type { MachineInfo } from "../machine-info.js";
import { renderMemoryReport } from "../report.js";
import type { Row } from "../row.js";
import { memoryAtScaleFigures } from "./figures.js";
import { memoryAtScaleSection } from "./report-section.js";
import type { MemoryAtScaleResult, Phase } from "./result.js";

const MiB = 1024 * 1024;

function pageRow(p50: number, problems: string[] = []): Row {
  return {
    id: "s5.records",
    label: "5 GET /payments/records?limit=50",
    problems,
    result: { requestsPerSecond: 1000, latency: { p50, p99: p50 * 3, mean: p50, max: p50 * 5 }, requests: 1000, durationSeconds: 1, errors: 0, timeouts: 0, outcomes: { "200": 1000 } },
  };
}

function phase(checkouts: number, overrides: Partial<Phase> = {}): Phase {
  return {
    checkouts,
    startToReadyMs: 900,
    atReady: { heapUsed: 60 * MiB, rss: 300 * MiB, anonymous: 170 * MiB },
    afterPages: { heapUsed: 62 * MiB, rss: 310 * MiB, anonymous: 260 * MiB },
    page: pageRow(2),
    recordsStored: checkouts,
    storesDiskBytes: 0.1 * MiB,
    dataDirDiskBytes: 0.3 * MiB,
    ...overrides,
  };
}

function result(large: Partial<Phase> = {}, small: Partial<Phase> = {}): MemoryAtScaleResult {
  return {
    checkouts: 1_000_000,
    empty: phase(0),
    small: phase(10_000, { page: pageRow(4), ...small }),
    large: phase(1_000_000, {
      startToReadyMs: 1_500,
      atReady: { heapUsed: 70 * MiB, rss: 400 * MiB, anonymous: 180 * MiB },
      afterPages: { heapUsed: 65 * MiB, rss: 900 * MiB, anonymous: 300 * MiB },
      page: pageRow(5),
      storesDiskBytes: 0.1 * MiB + 1_000_000 * 1500,
      ...large,
    }),
    seeding: [
      { checkouts: 10_000, seconds: 2 },
      { checkouts: 990_000, seconds: 198 },
    ],
  };
}

describe("memoryAtScaleFigures", () => {
  it("judges the larger growth over empty of the two readings, and the page at the largest size against the reference size", () => {
    const figures = memoryAtScaleFigures(result());
    // Heap: +10 MiB at ready, +3 MiB after the pages; anonymous: +10 MiB, +40 MiB.
    expect(figures.heapAboveEmptyBytes).toBe(10 * MiB);
    expect(figures.anonymousAboveEmptyBytes).toBe(40 * MiB);
    expect(figures.pageP50Ratio).toBe(1.25);
    expect(figures.perCheckout.diskBytes).toBe(1500);
    expect(figures.perCheckout.heapBytes).toBeCloseTo((10 * MiB) / 1_000_000);
    expect(figures.seedingPerSecond).toBe(5000);
    expect(Object.values(figures.checks).map((check) => check.met)).toEqual([true, true, true, true]);
  });

  it("fails each target past its bound", () => {
    const figures = memoryAtScaleFigures(
      result({
        startToReadyMs: 2_001,
        atReady: { heapUsed: 111 * MiB, rss: 400 * MiB, anonymous: 321 * MiB },
        page: pageRow(6.1),
      }),
    );
    expect(figures.checks.heap.met).toBe(false);
    expect(figures.checks.anonymous.met).toBe(false);
    expect(figures.checks.startToReady.met).toBe(false);
    expect(figures.checks.pageP50.met).toBe(false);
  });

  it("judges nothing when the stores do not hold what was seeded, and no page ratio from an invalid row", () => {
    const short = memoryAtScaleFigures(result({ recordsStored: 999_000 }));
    expect(short.unjudged).toBe("999000 records stored where 1000000 were seeded");
    expect(Object.values(short.checks).map((check) => check.met)).toEqual([undefined, undefined, undefined, undefined]);
    expect(memoryAtScaleFigures(result({}, { page: pageRow(4, ["500 ×3"]) })).checks.pageP50.met).toBeUndefined();
  });

  it("leaves anonymous memory unjudged where /proc could not tell", () => {
    const figures = memoryAtScaleFigures(result({ atReady: { heapUsed: 60 * MiB, rss: 1, anonymous: null } }));
    expect(figures.anonymousAboveEmptyBytes).toBeNull();
    expect(figures.checks.anonymous.met).toBeUndefined();
    expect(figures.perCheckout.anonymousBytes).toBeNull();
  });
});

describe("memoryAtScaleSection", () => {
  it("shows each start in a column with the growth and the verdicts", () => {
    const lines = memoryAtScaleSection(result());
    expect(lines).toContain("| | empty | 10,000 stored | 1,000,000 stored | at 1,000,000 − empty | target |");
    expect(lines).toContain("| start → /readyz 200 | 0.90 s | 0.90 s | 1.50 s | — | ≤ 2 s ✔ |");
    expect(lines).toContain("| heap after GC, after the page run | 62.0 MiB | 62.0 MiB | 65.0 MiB | +3.0 MiB | ≤ 50 MiB above empty ✔ (the larger growth: +10.0 MiB) |");
    expect(lines).toContain("| records page p50 ms (`limit=50`) | 2.00 | 4.00 | 5.00 | 1.25× the p50 at 10,000 | ≤ 1.5× the p50 at 10,000 ✔ |");
    expect(lines.join("\n")).toContain("- Per stored checkout: 1,500 B on disk (payments and records stores), 10.5 B of heap, 41.9 B of anonymous memory");
    expect(lines.join("\n")).toContain("- Seeding: 10,000 in 2.0 s, 990,000 in 198.0 s (5,000 checkouts/s");
  });

  it("says why nothing is judged, and marks an invalid page", () => {
    const text = memoryAtScaleSection(result({ recordsStored: 5, page: pageRow(5, ["no responses at all"]) })).join("\n");
    expect(text).toContain("- **Not judged**: 5 records stored where 1000000 were seeded");
    expect(text).toContain("INVALID: no responses at all");
    expect(text).toContain("≤ 2 s n/a");
  });
});

describe("a --memory run's report and JSON", () => {
  const machine: MachineInfo = { date: "2026-11-25T10:00:00.000Z", commit: "abc1234", node: "v20.20.2", cpu: "AMD EPYC", cores: 2, memoryBytes: 24 * 1024 * MiB, loadAverage: 2 };
  const options = { warmupSeconds: 3, durationSeconds: 10, connections: 32, quick: false, memoryOnly: true, memoryCheckouts: 1_000_000 } as BenchOptions;

  it("renders the section under the machine and the page runs' settings", () => {
    const report = renderMemoryReport({ machine, options, memoryAtScale: result() });
    expect(report).toContain("# Bayad benchmark: memory at scale\n");
    expect(report).toContain("- Commit: abc1234");
    expect(report).toContain("- Records page runs: 3 s warm-up, then 10 s at 32 connections (pipelining 1)");
    expect(report).toContain("## Memory at scale: 1,000,000 checkouts stored");
  });

  it("writes the readings with the derived figures and verdicts", () => {
    const json = memoryOnlyJson({ machine, options, memoryAtScale: result() }) as {
      memoryAtScale: { large: { checkouts: number }; figures: { pageP50Ratio: number; checks: { heap: { met: boolean } } } };
    };
    expect(json.memoryAtScale.large.checkouts).toBe(1_000_000);
    expect(json.memoryAtScale.figures.pageP50Ratio).toBe(1.25);
    expect(json.memoryAtScale.figures.checks.heap.met).toBe(true);
  });
});
