/** A sliding-window limit: at most `limit` calls in any `windowSeconds`. */
export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

/** The calls a limit let through in one slice of its window: at `start` ≤ t < start + width. */
export interface Slice {
  start: number;
  count: number;
}

/** How finely a window is counted: a call stops counting at most a 30th of the window late. */
const SLICES_PER_WINDOW = 30;

/** One slice's width in milliseconds (slices start at whole multiples of it). */
export function sliceWidthMs(setting: RateLimitSetting): number {
  return Math.ceil((setting.windowSeconds * 1000) / SLICES_PER_WINDOW);
}

/**
 * When the slice holding `now` ends. A call counted now and one made later within the same slice
 * count alike, which is what lets a caller count calls ahead of making them (rate-limit-leases.ts).
 */
export function sliceEndsAt(setting: RateLimitSetting, now: number): number {
  const width = sliceWidthMs(setting);
  return Math.floor(now / width) * width + width;
}

/** The oldest slice still counted at `now`: the one holding `now` minus the window, counted whole. */
function firstCounted(setting: RateLimitSetting, now: number): number {
  const width = sliceWidthMs(setting);
  return Math.floor((now - setting.windowSeconds * 1000) / width) * width;
}

/**
 * What counts against the limit at `now`: every call of the last window, and the rest of the
 * oldest slice, which is only partly inside it. So a limit never lets more than `limit` calls
 * through in any window, and may refuse up to a slice's width early. `freeAt` is when the count
 * next drops below the limit (`now` when it is below already).
 */
export function callsInWindow(slices: readonly Slice[], setting: RateLimitSetting, now: number): { count: number; freeAt: number } {
  const from = firstCounted(setting, now);
  const counted = slices.filter((slice) => slice.start >= from).sort((a, b) => a.start - b.start);
  const count = counted.reduce((sum, slice) => sum + slice.count, 0);
  let left = count;
  let freeAt = now;
  for (const slice of counted) {
    if (left < setting.limit) break;
    left -= slice.count;
    // A slice stops counting once the window's start has passed its end.
    freeAt = slice.start + sliceWidthMs(setting) + setting.windowSeconds * 1000;
  }
  return { count, freeAt };
}

/**
 * When the oldest call counted at `now` stops counting, so the count next drops (`now` when
 * nothing is counted): the "reset" a RateLimit header reports for a sliding window.
 */
export function oldestLeavesAt(slices: readonly Slice[], setting: RateLimitSetting, now: number): number {
  const from = firstCounted(setting, now);
  const oldest = slices.reduce((min, slice) => (slice.start >= from && slice.start < min ? slice.start : min), Infinity);
  return oldest === Infinity ? now : oldest + sliceWidthMs(setting) + setting.windowSeconds * 1000;
}

/** `slices` with `calls` more calls at `now`, oldest first, without the slices that no longer count. */
export function withCall(slices: readonly Slice[], setting: RateLimitSetting, now: number, calls = 1): Slice[] {
  const width = sliceWidthMs(setting);
  const start = Math.floor(now / width) * width;
  const from = firstCounted(setting, now);
  const kept = slices.filter((slice) => slice.start >= from && slice.start !== start);
  const current = slices.find((slice) => slice.start === start);
  return [...kept, { start, count: (current?.count ?? 0) + calls }].sort((a, b) => a.start - b.start);
}
