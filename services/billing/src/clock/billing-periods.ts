/**
 * Billing-period arithmetic. Pure: no clock, no store.
 *
 * Period boundaries are always counted from a stored anchor (the end of period k is the anchor
 * plus k intervals), never from the previous boundary, so a clamped month end (Jan 31 → Feb 28)
 * does not drag every later period to the 28th. Calendar math is done on the Manila wall clock
 * (the platform's merchants and payers live there): "the same day next month" means the same
 * day in Manila, whatever the UTC date. Manila is UTC+8 all year (no DST), so a fixed offset is
 * exact and no time-zone database is needed.
 */

export type BillingInterval = "weekly" | "monthly" | "yearly";

export interface Cadence {
  interval: BillingInterval;
  /** Intervals per billing period (≥ 1). */
  intervalCount: number;
}

/** Where a subscription's periods are counted from. */
export interface BillingSchedule extends Cadence {
  /** The start of period `anchorPeriod`; later periods end `k` intervals after it. */
  billingAnchor: Date;
  anchorPeriod: number;
}

export interface BillingPeriod {
  periodNumber: number;
  start: Date;
  end: Date;
}

const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The instant `k` billing intervals after `anchor`. Months and years keep the anchor's Manila
 * day of month and time of day, clamped to the last day of shorter months.
 */
export function addIntervals(anchor: Date, cadence: Cadence, k: number): Date {
  if (cadence.interval === "weekly") return new Date(anchor.getTime() + k * cadence.intervalCount * WEEK_MS);
  const months = k * cadence.intervalCount * (cadence.interval === "yearly" ? 12 : 1);
  // Shifted by the offset, the UTC fields of `wall` read as Manila wall-clock fields.
  const wall = new Date(anchor.getTime() + MANILA_OFFSET_MS);
  const monthIndex = wall.getUTCMonth() + months;
  const year = wall.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const day = Math.min(wall.getUTCDate(), daysInMonth(year, month));
  const shifted = Date.UTC(
    year,
    month,
    day,
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
    wall.getUTCMilliseconds(),
  );
  return new Date(shifted - MANILA_OFFSET_MS);
}

/** Period `periodNumber` of a schedule. */
export function periodOf(schedule: BillingSchedule, periodNumber: number): BillingPeriod {
  const k = periodNumber - schedule.anchorPeriod;
  return {
    periodNumber,
    start: addIntervals(schedule.billingAnchor, schedule, k),
    end: addIntervals(schedule.billingAnchor, schedule, k + 1),
  };
}

/** Where periods are counted from, and the period that starts there or next. */
export interface Rescheduled {
  billingAnchor: Date;
  anchorPeriod: number;
  period: BillingPeriod;
}

/** A new subscription's schedule: period 1 starts at `start`, which anchors every later period. */
export function firstSchedule(cadence: Cadence, start: Date): Rescheduled {
  const schedule = { ...cadence, billingAnchor: start, anchorPeriod: 1 };
  return { billingAnchor: start, anchorPeriod: 1, period: periodOf(schedule, 1) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A new subscription's schedule with a trial of `trialDays` days (whole days: Manila keeps no
 * DST, so the trial ends at the wall time it started): the trial is period 0, from `start` to
 * trialEnd; period 1 starts at trialEnd, which anchors every later period.
 */
export function trialSchedule(start: Date, trialDays: number): Rescheduled {
  const trialEnd = new Date(start.getTime() + trialDays * DAY_MS);
  return { billingAnchor: trialEnd, anchorPeriod: 1, period: { periodNumber: 0, start, end: trialEnd } };
}

/**
 * The period after `currentPeriod`, starting at `start`. Starting on schedule keeps the anchor;
 * starting anywhere else (a test helper closing a period early) re-anchors the schedule at
 * `start`, so the periods after it follow on from there.
 */
export function nextSchedule(schedule: BillingSchedule, currentPeriod: number, start: Date): Rescheduled {
  const { billingAnchor, anchorPeriod } = schedule;
  const onSchedule = periodOf(schedule, currentPeriod + 1);
  if (onSchedule.start.getTime() === start.getTime()) return { billingAnchor, anchorPeriod, period: onSchedule };
  const rebased = { interval: schedule.interval, intervalCount: schedule.intervalCount, billingAnchor: start, anchorPeriod: currentPeriod + 1 };
  return { billingAnchor: start, anchorPeriod: currentPeriod + 1, period: periodOf(rebased, currentPeriod + 1) };
}
