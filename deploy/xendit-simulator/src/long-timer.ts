import type { Timers } from "@bayad/simulator-kit";

/** Node's setTimeout holds at most 2^31 - 1 ms (~24.8 days); a longer wait would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * `timers.after`, for waits longer than setTimeout can hold (an invoice lives up to a year
 * [O]): the wait is chained in steps, still cleared when the simulator closes.
 */
export function afterLong(timers: Timers, ms: number, run: () => void): void {
  if (ms <= MAX_TIMEOUT_MS) return timers.after(ms, run);
  timers.after(MAX_TIMEOUT_MS, () => afterLong(timers, ms - MAX_TIMEOUT_MS, run));
}
