/** Latency figures of one run, in milliseconds. */
export interface LatencySummary {
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentiles of every response time of a run (all responses, as autocannon counts them). */
export function latencyPercentiles(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { p50: Number.NaN, p99: Number.NaN, mean: Number.NaN, max: Number.NaN };
  const sorted = Float64Array.from(samples).sort();
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
  let total = 0;
  for (const value of sorted) total += value;
  return { p50: at(0.5), p99: at(0.99), mean: total / sorted.length, max: sorted[sorted.length - 1] ?? Number.NaN };
}
