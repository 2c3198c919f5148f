import { isValid, type Row } from "./row.js";
import { eventDedupeWindowSeconds, type SoakResult } from "./soak.js";

/**
 * The targets. They are shown, never asserted: a benchmark that fails the build on a
 * noisy machine gets switched off, one that reports honestly gets read.
 */
export const targets = {
  /** Share of bare node:http requests/s a row should reach. */
  throughputShare: new Map([
    ["s1.capabilities", 0.3],
    ["s2.create-checkout", 0.12],
    ["s4.get-checkout", 0.25],
  ]),
  /** p99 bound of scenarios 1–4, which holds at this many connections. */
  p99Ms: 20,
  p99Rows: new Set(["s1.capabilities", "s2.create-checkout", "s3.replay-checkout", "s4.get-checkout"]),
  p99Connections: 32,
  /** Records feed: p50 at the largest size within this factor of p50 at the smallest. */
  recordsP50Ratio: 1.5,
  /** The soak's unexplained heap (see leakEstimate) must stay under both to count as no leak. */
  leakMaxBytes: 10 * 1024 * 1024,
  leakMaxBytesPerRequest: 100,
  /** Memory at scale (issue 28 item 4), with `--memory-checkouts` stored against an empty platform. */
  memoryAtScale: {
    heapAboveEmptyBytes: 50 * 1024 * 1024,
    anonymousAboveEmptyBytes: 150 * 1024 * 1024,
    startToReadyMs: 2_000,
    /** A records page's p50 at that size within this factor of its p50 at 10 000. */
    recordsP50Ratio: 1.5,
  },
};

/** One target's verdict: `met` is undefined when it cannot be judged (invalid row, other settings). */
export interface TargetCheck {
  text: string;
  met: boolean | undefined;
}

/** The targets that apply to one row, judged against `nodeHttpRps` (the row's ratioBaseline). */
export function rowChecks(row: Row, nodeHttpRps: number | undefined, connections: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const share = targets.throughputShare.get(row.id);
  const usable = isValid(row);
  if (share !== undefined) {
    const text = `≥ ${Math.round(share * 100)} % of node:http`;
    checks.push({
      text,
      met: usable && nodeHttpRps ? row.result.requestsPerSecond / nodeHttpRps >= share : undefined,
    });
  }
  if (targets.p99Rows.has(row.id)) {
    const text = `p99 ≤ ${targets.p99Ms} ms at ${targets.p99Connections} connections`;
    checks.push({
      text,
      met: usable && connections === targets.p99Connections ? row.result.latency.p99 <= targets.p99Ms : undefined,
    });
  }
  return checks;
}

/** Scenario 5's growth: p50 at the largest size over p50 at the smallest. */
export interface RecordsScaling {
  smallest: Row;
  largest: Row;
  ratio: number;
  check: TargetCheck;
}

export function recordsScaling(recordRows: Row[]): RecordsScaling | undefined {
  const smallest = recordRows[0];
  const largest = recordRows[recordRows.length - 1];
  if (!smallest || !largest || smallest === largest) return undefined;
  const ratio = largest.result.latency.p50 / smallest.result.latency.p50;
  const usable = isValid(smallest) && isValid(largest);
  return {
    smallest,
    largest,
    ratio,
    check: { text: `≤ ${targets.recordsP50Ratio}×`, met: usable ? ratio <= targets.recordsP50Ratio : undefined },
  };
}

/**
 * The soak's leak estimate: heap held after the stored documents are deleted and the event
 * bus's duplicate window has passed, beyond what was held before the soak, both after a full GC.
 * Stored data is what should grow with requests, and it is gone at both readings; so is the
 * bounded duplicate window. Judged only on valid, settled readings.
 */
export interface LeakEstimate {
  unexplainedBytes: number;
  bytesPerRequest: number;
  /** Heap the stored documents account for: with data minus right after deleting them. */
  dataBytes: number;
  /** Heap released by settling: the duplicate window's event ids (0 when not settled). */
  windowBytes: number;
  rssGrowthBytes: number;
  /** Why the verdict is not judged, when it is not. */
  unjudged?: string;
  check: TargetCheck;
}

export function leakEstimate(soak: SoakResult): LeakEstimate {
  const unexplainedBytes = soak.settled.heapUsed - soak.empty.heapUsed;
  const requests = Math.max(1, soak.row.result.requests);
  const bytesPerRequest = unexplainedBytes / requests;
  const unjudged = !isValid(soak.row)
    ? "the soak row is invalid"
    : soak.settleSeconds < eventDedupeWindowSeconds
      ? `readings not settled (--settle ${soak.settleSeconds} < the ${eventDedupeWindowSeconds} s duplicate window)`
      : undefined;
  const met =
    unjudged === undefined
      ? unexplainedBytes < targets.leakMaxBytes && bytesPerRequest < targets.leakMaxBytesPerRequest
      : undefined;
  return {
    unexplainedBytes,
    bytesPerRequest,
    dataBytes: soak.withData.heapUsed - soak.dropped.heapUsed,
    windowBytes: soak.dropped.heapUsed - soak.settled.heapUsed,
    rssGrowthBytes: soak.withData.rss - soak.empty.rss,
    ...(unjudged === undefined ? {} : { unjudged }),
    check: {
      text: `no leak (< ${targets.leakMaxBytes / 1024 / 1024} MiB and < ${targets.leakMaxBytesPerRequest} B/request unexplained)`,
      met,
    },
  };
}
