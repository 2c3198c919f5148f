import { request, type ActingFor } from "../../api/client";
import { methodLabel } from "../../format";

/**
 * The payments summary (GET /api/v1/payments/reports/summary): totals the records service keeps
 * as events arrive, per Philippine day (UTC+8) of each record's creation, so any range is exact
 * and nothing is capped. Counts are numbers; *Minor are decimal centavos text.
 */
export interface SummaryTotals {
  paidCount: number;
  paidMinor: string;
  failedCount: number;
  failedMinor: string;
  refundedCount: number;
  refundedMinor: string;
  feeMinor: string;
  netMinor: string;
  /** Paid payments whose provider did not report a fee (their fee is not in feeMinor). */
  unreportedFeeCount: number;
}

export interface SummaryPeriod {
  start: string;
  end: string;
  /** With groupBy=payment_method: Bayad's method name, null when unknown. */
  paymentMethod?: string | null;
  /** With groupBy=provider_account: the account's id, null for the sandbox. */
  providerAccountId?: string | null;
  totals: SummaryTotals;
}

export interface PaymentsSummary {
  periods: SummaryPeriod[];
  total: SummaryTotals;
}

export const granularities = ["day", "week", "month"] as const;
export type Granularity = (typeof granularities)[number];
export const groupings = ["payment_method", "provider_account"] as const;
export type Grouping = (typeof groupings)[number];

export interface SummaryQuery {
  /** Philippine day "2026-11-01", inclusive. */
  from: string;
  /** Philippine day, inclusive. */
  to: string;
  granularity: Granularity;
  groupBy?: Grouping;
}

export function paymentsSummary(actingFor: ActingFor, query: SummaryQuery): Promise<PaymentsSummary> {
  return request<PaymentsSummary>("/api/v1/payments/reports/summary", { actingFor, query: { ...query } });
}

/** Philippine time is UTC+8 all year (no daylight saving). */
const philippineOffsetMs = 8 * 60 * 60 * 1000;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** The Philippine calendar day of an instant, "2026-11-27". */
export function philippineDay(instant: Date): string {
  return new Date(instant.getTime() + philippineOffsetMs).toISOString().slice(0, 10);
}

/** The `days` Philippine days ending today: the overview's default range. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const today = philippineDay(now);
  const first = new Date(`${today}T00:00:00Z`);
  first.setUTCDate(first.getUTCDate() - (days - 1));
  return { from: first.toISOString().slice(0, 10), to: today };
}

/** A real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isDay(text: string): boolean {
  return dayPattern.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

/** Why a range cannot be asked for, or undefined when it can. */
export function rangeError(from: string, to: string): string | undefined {
  if (!isDay(from) || !isDay(to)) return "Choose both days of the range.";
  return from > to ? "The range ends before it starts." : undefined;
}

/** A period's start as a Philippine day, whether the gateway wrote a day or an instant. */
export function periodDay(start: string): string {
  if (dayPattern.test(start)) return start;
  const instant = new Date(start);
  return Number.isNaN(instant.getTime()) ? start : philippineDay(instant);
}

const sumMinor = (...values: string[]) => values.reduce((sum, value) => sum + BigInt(/^-?\d+$/.test(value) ? value : "0"), 0n).toString();

/** What the overview's cards show, from one totals. */
export interface SummaryCards {
  paid: { minor: string; count: number };
  fee: string;
  net: string;
  refunded: { minor: string; count: number };
  failed: { minor: string; count: number };
  /** paid ÷ (paid + failed), by count; null when neither happened. */
  successRate: number | null;
  /** Payments without a fee from their provider; 0 hides the note. */
  unreportedFeeCount: number;
}

export function cardsOf(totals: SummaryTotals): SummaryCards {
  const decided = totals.paidCount + totals.failedCount;
  return {
    paid: { minor: totals.paidMinor, count: totals.paidCount },
    fee: totals.feeMinor,
    net: totals.netMinor,
    refunded: { minor: totals.refundedMinor, count: totals.refundedCount },
    failed: { minor: totals.failedMinor, count: totals.failedCount },
    successRate: decided > 0 ? totals.paidCount / decided : null,
    unreportedFeeCount: totals.unreportedFeeCount,
  };
}

export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)}%`;
}

/** A period as the table names it: the day, "Week of" its first day, or the month. */
export function periodLabel(start: string, granularity: Granularity): string {
  const day = periodDay(start);
  if (granularity === "week") return `Week of ${day}`;
  if (granularity === "month") return day.slice(0, 7);
  return day;
}

/** A group of a split summary as the table names it. */
export function groupLabel(period: SummaryPeriod, groupBy: Grouping | undefined): string | undefined {
  if (groupBy === "payment_method") return period.paymentMethod ? methodLabel(period.paymentMethod) : "Unknown method";
  if (groupBy === "provider_account") return period.providerAccountId ?? "Sandbox";
  return undefined;
}

/** One bar of the chart: a period's paid volume and count, its groups added together. */
export interface ChartPoint {
  /** Philippine day the period starts. */
  day: string;
  paidMinor: string;
  paidCount: number;
}

/** The periods summed across groups, oldest first: the chart's bars whatever the split. */
export function chartPoints(summary: PaymentsSummary): ChartPoint[] {
  const byDay = new Map<string, ChartPoint>();
  for (const period of summary.periods) {
    const day = periodDay(period.start);
    const point = byDay.get(day) ?? { day, paidMinor: "0", paidCount: 0 };
    point.paidMinor = sumMinor(point.paidMinor, period.totals.paidMinor);
    point.paidCount += period.totals.paidCount;
    byDay.set(day, point);
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
}

/** One row of the periods table. */
export interface PeriodRow {
  key: string;
  period: string;
  group?: string;
  cards: SummaryCards;
}

/** The table's rows: newest period first, its groups by name. */
export function periodRows(summary: PaymentsSummary, granularity: Granularity, groupBy?: Grouping): PeriodRow[] {
  return summary.periods
    .map((period) => ({ day: periodDay(period.start), group: groupLabel(period, groupBy), period }))
    .sort((a, b) => b.day.localeCompare(a.day) || (a.group ?? "").localeCompare(b.group ?? ""))
    .map(({ day, group, period }) => ({ key: `${day}/${group ?? ""}`, period: periodLabel(period.start, granularity), group, cards: cardsOf(period.totals) }));
}
