import { localDay } from "../../format";
import type { PaymentRecord } from "../payments/records";

/** A payment (checkout or payment intent) that took the money. */
const succeeded = new Set(["paid", "succeeded"]);
/** Statuses a payment ends in; anything else (created, pending, processing, requires_action) is still open. */
const finished = new Set(["paid", "succeeded", "failed", "cancelled", "expired"]);
const paymentTypes = new Set(["checkout", "payment_intent"]);

export interface DayTotal {
  /** Local calendar day, "2026-11-27". */
  day: string;
  volumeMinor: bigint;
  count: number;
}

export interface Totals {
  /** Sum of paid checkouts' and succeeded intents' amounts. */
  volumeMinor: bigint;
  paidCount: number;
  /** Payments that reached a final status (paid/succeeded, failed, cancelled, expired). */
  finishedCount: number;
  /** paidCount ÷ finishedCount, or null when nothing finished. */
  successRate: number | null;
  /** Refunds that did not fail (pending or succeeded), and their amount as a positive number. */
  refundCount: number;
  refundMinor: bigint;
}

const amountOf = (record: PaymentRecord) => (record.amountMinor && /^-?\d+$/.test(record.amountMinor) ? BigInt(record.amountMinor) : 0n);
const isPaid = (record: PaymentRecord) => paymentTypes.has(record.type) && succeeded.has(record.status ?? "");

/** The `days` local days ending today, oldest first, and the instant the first one starts. */
export function lastDays(days: number, now = new Date()): { days: string[]; since: Date } {
  const since = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  const list: string[] = [];
  for (let offset = 0; offset < days; offset++) {
    list.push(localDay(new Date(since.getFullYear(), since.getMonth(), since.getDate() + offset)));
  }
  return { days: list, since };
}

/** Paid volume and count per local day, one entry for each of `days` (zero when none). */
export function dailyTotals(records: PaymentRecord[], days: string[]): DayTotal[] {
  const byDay = new Map(days.map((day) => [day, { day, volumeMinor: 0n, count: 0 }]));
  for (const record of records) {
    if (!isPaid(record)) continue;
    const bucket = byDay.get(localDay(record.createdAt));
    if (!bucket) continue;
    bucket.volumeMinor += amountOf(record);
    bucket.count += 1;
  }
  return [...byDay.values()];
}

export function totals(records: PaymentRecord[]): Totals {
  const result: Totals = { volumeMinor: 0n, paidCount: 0, finishedCount: 0, successRate: null, refundCount: 0, refundMinor: 0n };
  for (const record of records) {
    if (paymentTypes.has(record.type)) {
      if (isPaid(record)) {
        result.paidCount += 1;
        result.volumeMinor += amountOf(record);
      }
      if (finished.has(record.status ?? "")) result.finishedCount += 1;
    } else if (record.type === "refund" && record.status !== "failed") {
      result.refundCount += 1;
      const amount = amountOf(record);
      result.refundMinor += amount < 0n ? -amount : amount;
    }
  }
  result.successRate = result.finishedCount > 0 ? result.paidCount / result.finishedCount : null;
  return result;
}

export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(1)}%`;
}
