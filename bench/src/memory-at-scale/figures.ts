import { isValid } from "../row.js";
import { targets, type TargetCheck } from "../targets.js";
import type { MemoryAtScaleResult, Phase, ProcessMemory } from "./result.js";

/** What the memory-at-scale section derives from its readings, and the verdicts. */
export interface MemoryAtScaleFigures {
  /** Heap above the empty platform: the larger of the differences at ready and after the page run. */
  heapAboveEmptyBytes: number;
  /** The same for anonymous memory; null where it could not be read. */
  anonymousAboveEmptyBytes: number | null;
  startToReadyMs: number;
  /** Records page p50 at `checkouts` over p50 at the small size; null when both sizes are one. */
  pageP50Ratio: number | null;
  perCheckout: {
    /** The payments and records stores' growth on disk over the checkouts stored. */
    diskBytes: number;
    heapBytes: number;
    anonymousBytes: number | null;
  };
  /** Checkouts stored per second while seeding (all steps together). */
  seedingPerSecond: number;
  /** Why nothing is judged, when it is not (the stores do not hold what was seeded). */
  unjudged?: string;
  checks: {
    heap: TargetCheck;
    anonymous: TargetCheck;
    startToReady: TargetCheck;
    pageP50: TargetCheck;
  };
}

const mibText = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/** The larger growth over `empty` of the two readings of a phase (a target holds at every moment). */
function growth(phase: Phase, empty: Phase, field: keyof ProcessMemory): number | null {
  const differences = (["atReady", "afterPages"] as const).map((moment) => {
    const here = phase[moment][field];
    const there = empty[moment][field];
    return here === null || there === null ? null : here - there;
  });
  return differences.some((value) => value === null) ? null : Math.max(...(differences as number[]));
}

export function memoryAtScaleFigures(result: MemoryAtScaleResult): MemoryAtScaleFigures {
  const { empty, small, large } = result;
  const goal = targets.memoryAtScale;
  const heapAboveEmptyBytes = growth(large, empty, "heapUsed")!;
  const anonymousAboveEmptyBytes = growth(large, empty, "anonymous");
  const pageP50Ratio = small.checkouts === large.checkouts ? null : large.page.result.latency.p50 / small.page.result.latency.p50;
  const stored = Math.max(1, large.checkouts - empty.checkouts);
  const seededSeconds = result.seeding.reduce((sum, step) => sum + step.seconds, 0);
  const seededCheckouts = result.seeding.reduce((sum, step) => sum + step.checkouts, 0);

  const missing = [small, large].filter((phase) => phase.recordsStored !== phase.checkouts);
  const unjudged =
    missing.length > 0
      ? missing.map((phase) => `${phase.recordsStored} records stored where ${phase.checkouts} were seeded`).join("; ")
      : undefined;
  const judged = (met: boolean | undefined) => (unjudged === undefined ? met : undefined);

  return {
    heapAboveEmptyBytes,
    anonymousAboveEmptyBytes,
    startToReadyMs: large.startToReadyMs,
    pageP50Ratio,
    perCheckout: {
      diskBytes: (large.storesDiskBytes - empty.storesDiskBytes) / stored,
      heapBytes: heapAboveEmptyBytes / stored,
      anonymousBytes: anonymousAboveEmptyBytes === null ? null : anonymousAboveEmptyBytes / stored,
    },
    seedingPerSecond: seededSeconds > 0 ? seededCheckouts / seededSeconds : 0,
    ...(unjudged === undefined ? {} : { unjudged }),
    checks: {
      heap: { text: `≤ ${mibText(goal.heapAboveEmptyBytes)} above empty`, met: judged(heapAboveEmptyBytes <= goal.heapAboveEmptyBytes) },
      anonymous: {
        text: `≤ ${mibText(goal.anonymousAboveEmptyBytes)} above empty`,
        met: judged(anonymousAboveEmptyBytes === null ? undefined : anonymousAboveEmptyBytes <= goal.anonymousAboveEmptyBytes),
      },
      startToReady: { text: `≤ ${goal.startToReadyMs / 1000} s`, met: judged(large.startToReadyMs <= goal.startToReadyMs) },
      pageP50: {
        text: `≤ ${goal.recordsP50Ratio}× the p50 at ${small.checkouts.toLocaleString("en-US")}`,
        met: judged(pageP50Ratio === null || !isValid(small.page) || !isValid(large.page) ? undefined : pageP50Ratio <= goal.recordsP50Ratio),
      },
    },
  };
}
