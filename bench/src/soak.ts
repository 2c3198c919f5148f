import { createCheckout } from "./api-client.js";
import type { MemoryReading, RssSplit } from "./memory.js";
import type { PairedBaselines } from "./paired-baselines.js";
import type { PlatformHandle } from "./platform-handle.js";
import { measureScenario, type Row } from "./row.js";
import { checkoutBody, createCheckouts, freshValue } from "./scenarios.js";
import { emptyStores } from "./seed-records.js";

/**
 * How long the platform's event bus remembers published event ids to drop duplicates (the
 * in-process bus copies JetStream's 2-minute window; docs/api/records.md). Those ids are
 * bounded state, not stored data and not a leak, but they sit in the heap until a publish after
 * the window has passed evicts them, so a heap reading soon after load counts them.
 */
export const eventDedupeWindowSeconds = 120;

export interface MemorySample {
  /** Seconds since the soak began. */
  atSeconds: number;
  rss: number;
  heapUsed: number;
  /** Anonymous, file-backed and shared pages of the RSS; null where /proc cannot tell. */
  split: RssSplit | null;
}

/**
 * Scenario 2 without a break, with the platform's memory read after a full GC:
 * - `empty`: before, stores emptied (settled, see below);
 * - `withData`: after, once the records feed has caught up;
 * - `dropped`: right after deleting every stored document;
 * - `settled`: after deleting them and letting the bus's duplicate window pass (equal to
 *   `dropped` when settling is off).
 * `settled − empty` is memory that neither stored data nor the bounded duplicate window
 * explains: the leak estimate.
 */
export interface SoakResult {
  seconds: number;
  /** Seconds waited before `empty` and `settled` (0: not settled). */
  settleSeconds: number;
  row: Row;
  /** Checkouts the benchmark saw created (201 answers). */
  checkoutsCreated: number;
  /** Payment records once the feed caught up: also counts the requests in flight when the run stopped. */
  recordsStored: number;
  empty: MemoryReading;
  withData: MemoryReading;
  dropped: MemoryReading;
  settled: MemoryReading;
  samples: MemorySample[];
}

/**
 * The soak, its row right after its denominators (node:http and the durable floor, measured with
 * `paired`'s settings once the `empty` reading is taken).
 */
export async function soak(platform: PlatformHandle, seconds: number, settleSeconds: number, connections: number, paired: PairedBaselines): Promise<SoakResult> {
  await emptyStores(platform);
  const empty = await settledReading(platform, settleSeconds);
  const denominators = await paired.measureBefore("write");

  // A handful of samples even on a short soak; every 15 s on the full one.
  const intervalMs = Math.min(15, Math.max(2, seconds / 4)) * 1000;
  const samples: MemorySample[] = [{ atSeconds: 0, rss: empty.rss, heapUsed: empty.heapUsed, split: empty.split }];
  const started = Date.now();
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(async () => {
      const reading = await platform.memory();
      samples.push({ atSeconds: Math.round((Date.now() - started) / 1000), rss: reading.rss, heapUsed: reading.heapUsed, split: reading.split });
    });
  }, intervalMs);

  let row: Row;
  try {
    const scenario = createCheckouts(platform.testApiKey);
    const measured = await measureScenario(
      platform.gatewayUrl,
      { ...scenario, id: "soak.create-checkout", label: `Soak: 2 for ${seconds} s` },
      { connections, durationSeconds: seconds },
    );
    row = { ...measured, ...denominators };
  } finally {
    clearInterval(timer);
    await sampling;
  }

  await platform.drain();
  const recordsStored = await platform.countRecords();
  const withData = await platform.memory();
  await platform.dropData();
  const dropped = await platform.memory();
  const settled = settleSeconds > 0 ? await settledReading(platform, settleSeconds) : dropped;
  return {
    seconds,
    settleSeconds,
    row,
    checkoutsCreated: row.result.outcomes["201"] ?? 0,
    recordsStored,
    empty,
    withData,
    dropped,
    settled,
    samples,
  };
}

/**
 * A reading of empty stores with the duplicate window expired: wait it out, publish one event
 * (a checkout through the API: the bus evicts expired ids only when something is published),
 * let it drain, delete it, read. Without settling, a plain reading.
 */
async function settledReading(platform: PlatformHandle, settleSeconds: number): Promise<MemoryReading> {
  if (settleSeconds > 0) {
    process.stdout.write(`  settling: waiting ${settleSeconds} s for the event bus's duplicate window …\n`);
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    await createCheckout(platform, JSON.parse(checkoutBody(freshValue("settle-order"))), freshValue("settle-key"));
    await emptyStores(platform);
  }
  return platform.memory();
}
