import type { MemoryReading } from "../memory.js";
import type { Row } from "../row.js";
import type { SoakResult } from "../soak.js";

const MiB = 1024 * 1024;

/** A valid row of `id` at `requestsPerSecond` with the given p99, plus any other field. */
export function row(id: string, requestsPerSecond: number, p99 = 1, extra: Partial<Row> = {}): Row {
  return {
    id,
    label: id,
    problems: [],
    result: {
      requestsPerSecond,
      latency: { p50: p99 / 2, p99, mean: p99 / 2, max: p99 },
      requests: Math.round(requestsPerSecond * 10),
      durationSeconds: 10,
      errors: 0,
      timeouts: 0,
      outcomes: { "201": Math.round(requestsPerSecond * 10) },
    },
    ...extra,
  };
}

/** A memory reading with heap and anonymous memory in MiB (file-backed pages: `fileMib`). */
export function reading(heapMib: number, anonymousMib: number, fileMib = 100): MemoryReading {
  return {
    rss: (anonymousMib + fileMib) * MiB,
    heapUsed: heapMib * MiB,
    heapResident: (heapMib + 20) * MiB,
    external: 10 * MiB,
    peakRss: (anonymousMib + fileMib) * MiB,
    split: { anonymous: anonymousMib * MiB, file: fileMib * MiB, shmem: 0 },
  };
}

/** A settled soak whose anonymous memory goes from `emptyMib` to `withDataMib` under load and `settledMib` after. */
export function soakResult(anonymous: { emptyMib: number; withDataMib: number; settledMib: number }, overrides: Partial<SoakResult> = {}): SoakResult {
  const empty = reading(60, anonymous.emptyMib, 100);
  return {
    seconds: 180,
    settleSeconds: 125,
    row: row("soak.create-checkout", 1_000, 40),
    checkoutsCreated: 180_000,
    recordsStored: 180_000,
    empty,
    withData: reading(105, anonymous.withDataMib, 900),
    dropped: reading(105, anonymous.withDataMib, 900),
    settled: reading(61, anonymous.settledMib, 900),
    samples: [{ atSeconds: 0, rss: empty.rss, heapUsed: empty.heapUsed, split: empty.split }],
    ...overrides,
  };
}
