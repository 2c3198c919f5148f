import type { ProjectedRecord } from "../records/payment-record.js";
import { zeroCounters, type TotalsCounters, type TotalsKey } from "./totals-collection.js";

/** What one record adds to the totals, and where. */
export interface Contribution {
  key: TotalsKey;
  counters: TotalsCounters;
}

type CountedFields = Pick<
  ProjectedRecord,
  "type" | "projectId" | "environment" | "status" | "amountMinor" | "amount" | "fee" | "paymentMethod" | "providerAccountId" | "createdAt"
>;

const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** The Philippine calendar day of an instant (UTC+8 all year: the Philippines keeps no DST). */
export function manilaDay(instant: Date): string {
  return new Date(instant.getTime() + MANILA_OFFSET_MS).toISOString().slice(0, 10);
}

/** Which of the totals a record's state counts in, if any (docs/api/records.md, Totals). */
function outcomeOf(record: Pick<ProjectedRecord, "type" | "status">): "paid" | "failed" | "refunded" | null {
  switch (record.type) {
    case "checkout":
      return record.status === "paid" ? "paid" : record.status === "failed" ? "failed" : null;
    case "payment_intent":
      return record.status === "succeeded" ? "paid" : record.status === "failed" ? "failed" : null;
    case "payment_link":
    case "invoice":
      return record.status === "paid" ? "paid" : null;
    case "refund":
      return record.status === "succeeded" ? "refunded" : null;
    case "subscription":
      return null;
  }
}

/**
 * What a record adds to the totals in its present state; null when it counts in none (pending,
 * cancelled, subscriptions, …). Pure: the projection subtracts a record's old contribution and
 * adds its new one, and the rebuild sums them, so both arrive at the same totals.
 */
export function contribution(record: CountedFields): Contribution | null {
  const outcome = outcomeOf(record);
  if (outcome === null) return null;
  // Records projected before `amount` existed carry only the text.
  const amount = record.amount ?? (record.amountMinor !== null ? Number(record.amountMinor) : 0);
  const fee = record.fee ?? null;
  const counters = zeroCounters();
  switch (outcome) {
    case "paid":
      counters.paidCount = 1;
      counters.paidMinor = amount;
      if (fee === null) counters.unreportedFeeCount = 1;
      else counters.feeMinor = fee;
      break;
    case "failed":
      counters.failedCount = 1;
      counters.failedMinor = amount;
      break;
    case "refunded":
      counters.refundedCount = 1;
      counters.refundedMinor = Math.abs(amount);
      counters.feeMinor = fee ?? 0;
      break;
  }
  return {
    key: {
      projectId: record.projectId,
      environment: record.environment,
      day: manilaDay(record.createdAt),
      paymentMethod: record.paymentMethod ?? null,
      providerAccountId: record.providerAccountId ?? null,
    },
    counters,
  };
}
