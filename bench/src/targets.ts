import { isValid, type Row } from "./row.js";
import { eventDedupeWindowSeconds, type SoakResult } from "./soak.js";
import type { WebhookDeliveryResult } from "./webhook-scenario.js";

/**
 * The targets. They are shown, never asserted: a benchmark that fails the build on a
 * noisy machine gets switched off, one that reports honestly gets read.
 */
export const targets = {
  /** Share of bare node:http requests/s a row should reach (issue 41), by row id or id prefix. */
  throughputShare: new Map([
    ["s1.capabilities", 0.3],
    ["s2.create-checkout", 0.05],
    ["s3.replay-checkout", 0.25],
    ["s4.get-checkout", 0.25],
    ["s5.", 0.08],
  ]),
  /** Share of the durable floor's requests/s (node:http + one durable write per POST) a row should reach. */
  durableFloorShare: new Map([["s2.create-checkout", 0.25]]),
  /** p99 bounds, which hold at this many connections: 2's from issue 41, 1, 3 and 4's kept from before. */
  p99Ms: new Map([
    ["s1.capabilities", 20],
    ["s2.create-checkout", 30],
    ["s3.replay-checkout", 20],
    ["s4.get-checkout", 20],
  ]),
  p99Connections: 32,
  /** Records feed: p50 at the largest size within this factor of p50 at the smallest. */
  recordsP50Ratio: 1.5,
  /** The soak's unexplained heap (see leakEstimate) must stay under both to count as no leak. */
  leakMaxBytes: 10 * 1024 * 1024,
  leakMaxBytesPerRequest: 100,
  /** The soak's anonymous memory, settled over empty (see anonymousGrowth), must stay under this. */
  anonymousGrowthMaxBytes: 10 * 1024 * 1024,
  /** Scenario 7: a checkout's state change to its signed delivery at the receiver, p99. */
  deliveryP99Ms: 1_000,
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

/** The share of node:http `rowId` should reach: its own, or its family's (`s5.` for every records size). */
function throughputShareOf(rowId: string): number | undefined {
  return targets.throughputShare.get(rowId) ?? targets.throughputShare.get(`${rowId.split(".")[0]}.`);
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

/**
 * The targets that apply to one row, judged against its denominators: `nodeHttpRps` (the row's
 * ratioBaseline) and `durableFloorRps` (its floorBaseline).
 */
export function rowChecks(row: Row, nodeHttpRps: number | undefined, connections: number, durableFloorRps?: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const usable = isValid(row);
  const shareCheck = (share: number | undefined, of: string, denominator: number | undefined) => {
    if (share === undefined) return;
    checks.push({
      text: `≥ ${percent(share)} of ${of}`,
      met: usable && denominator ? row.result.requestsPerSecond / denominator >= share : undefined,
    });
  };
  shareCheck(targets.durableFloorShare.get(row.id), "the durable floor", durableFloorRps);
  shareCheck(throughputShareOf(row.id), "node:http", nodeHttpRps);
  const p99Ms = targets.p99Ms.get(row.id);
  if (p99Ms !== undefined) {
    checks.push({
      text: `p99 ≤ ${p99Ms} ms at ${targets.p99Connections} connections`,
      met: usable && connections === targets.p99Connections ? row.result.latency.p99 <= p99Ms : undefined,
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

/**
 * The soak's anonymous memory (RssAnon: malloc, V8's heaps, stacks; not LMDB's mapped file),
 * at the start (`empty`), right after the load (`withData`) and settled. The verdict is on
 * settled − empty, the leak estimate's two readings: right after the load anonymous memory also
 * holds the event bus's bounded duplicate window (see eventDedupeWindowSeconds), which is
 * released only once the window has passed. File-backed pages are shown beside it, not judged:
 * they grow with the data LMDB maps.
 */
export interface AnonymousGrowth {
  /** withData − empty, anonymous and file-backed. */
  underLoadBytes: number;
  fileUnderLoadBytes: number;
  /** settled − empty, anonymous: what the verdict judges. */
  settledBytes: number;
  unjudged?: string;
  check: TargetCheck;
}

export function anonymousGrowth(soak: SoakResult): AnonymousGrowth | undefined {
  const [empty, withData, settled] = [soak.empty.split, soak.withData.split, soak.settled.split];
  if (!empty || !withData || !settled) return undefined;
  const settledBytes = settled.anonymous - empty.anonymous;
  const unjudged = !isValid(soak.row)
    ? "the soak row is invalid"
    : soak.settleSeconds < eventDedupeWindowSeconds
      ? `readings not settled (--settle ${soak.settleSeconds} < the ${eventDedupeWindowSeconds} s duplicate window)`
      : undefined;
  return {
    underLoadBytes: withData.anonymous - empty.anonymous,
    fileUnderLoadBytes: withData.file - empty.file,
    settledBytes,
    ...(unjudged === undefined ? {} : { unjudged }),
    check: {
      text: `anonymous growth < ${targets.anonymousGrowthMaxBytes / 1024 / 1024} MiB`,
      met: unjudged === undefined ? settledBytes < targets.anonymousGrowthMaxBytes : undefined,
    },
  };
}

/**
 * Scenario 7's verdict: p99 within the bound, and every probed checkout's delivery arrived
 * signed (a fast p99 of the deliveries that arrived says nothing of those that did not). Not
 * judged when the load's row is invalid or no probe paid a checkout.
 */
export function deliveryCheck(delivery: WebhookDeliveryResult): TargetCheck {
  const usable = isValid(delivery.row) && delivery.paid > 0;
  return {
    text: `delivery p99 ≤ ${targets.deliveryP99Ms / 1000} s, none missing`,
    met: usable ? delivery.missing === 0 && delivery.unverified === 0 && delivery.latencyMs.p99 <= targets.deliveryP99Ms : undefined,
  };
}
