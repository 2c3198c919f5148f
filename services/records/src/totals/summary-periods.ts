/** Philippine calendar days as day numbers (days since 1970-01-01), for period arithmetic. */

const DAY_MS = 86_400_000;
const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of YYYY-MM-DD, or null when it is not a real day ("2026-02-30"). */
export function dayNumberOf(text: string): number | null {
  const parts = DATE_SHAPE.exec(text);
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return time / DAY_MS;
}

export function dayTextOf(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

export const granularities = ["day", "week", "month"] as const;
export type Granularity = (typeof granularities)[number];

/** A period's first and last day numbers, both inclusive. */
export interface Period {
  start: number;
  end: number;
}

/** The last day of the period (of `granularity`) that `day` falls in: itself, its Sunday, its month's last day. */
function periodEndOf(day: number, granularity: Granularity): number {
  switch (granularity) {
    case "day":
      return day;
    case "week":
      // getUTCDay: 0 is Sunday; weeks run Monday to Sunday.
      return day + ((7 - new Date(day * DAY_MS).getUTCDay()) % 7);
    case "month": {
      const date = new Date(day * DAY_MS);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / DAY_MS - 1;
    }
  }
}

/**
 * The periods from `from` to `to` (day numbers, inclusive), the first and last clipped to them;
 * null as soon as there would be more than `max`, so a long range costs no more than the cap.
 */
export function periodsOf(from: number, to: number, granularity: Granularity, max: number): Period[] | null {
  const periods: Period[] = [];
  for (let start = from; start <= to; ) {
    if (periods.length === max) return null;
    const end = Math.min(periodEndOf(start, granularity), to);
    periods.push({ start, end });
    start = end + 1;
  }
  return periods;
}

/** The index of the period holding `day`, by binary search over the ordered periods. */
export function periodIndexOf(periods: Period[], day: number): number {
  let low = 0;
  let high = periods.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (periods[middle].start <= day) low = middle;
    else high = middle - 1;
  }
  return low;
}
