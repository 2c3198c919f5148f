import type { CollectionDef } from "@bayad/store";
import type { Environment } from "@bayad/kit";

/** What one totals document adds up: counts, and sums of centavos (numbers, exact below 2^53). */
export interface TotalsCounters {
  paidCount: number;
  paidMinor: number;
  failedCount: number;
  failedMinor: number;
  refundedCount: number;
  /** A positive sum, although refund records carry negative amounts. */
  refundedMinor: number;
  /** Fees of paid payments and of refunds. */
  feeMinor: number;
  /** Paid payments whose provider reported no fee (counted as 0 in feeMinor). */
  unreportedFeeCount: number;
}

export const counterNames = [
  "paidCount",
  "paidMinor",
  "failedCount",
  "failedMinor",
  "refundedCount",
  "refundedMinor",
  "feeMinor",
  "unreportedFeeCount",
] as const satisfies readonly (keyof TotalsCounters)[];

export const zeroCounters = (): TotalsCounters => ({
  paidCount: 0,
  paidMinor: 0,
  failedCount: 0,
  failedMinor: 0,
  refundedCount: 0,
  refundedMinor: 0,
  feeMinor: 0,
  unreportedFeeCount: 0,
});

/** Which totals document a record counts in. */
export interface TotalsKey {
  projectId: string;
  environment: Environment;
  /** The Philippine calendar day (UTC+8) of the record's createdAt, YYYY-MM-DD. */
  day: string;
  /** Bayad's method name; null when none is known. */
  paymentMethod: string | null;
  /** The project's provider account; null for the sandbox. */
  providerAccountId: string | null;
}

/**
 * One document of `payment_totals`: the counters of one key, kept by the projection. Each day has
 * them twice: split by method and account (`wholeDay` false), and once over every method and
 * account (`wholeDay` true, its method and account null), so that a summary without groups reads
 * one document a day instead of one per method × account.
 */
export interface PaymentTotalsDoc extends TotalsKey, TotalsCounters {
  _id: string;
  wholeDay: boolean;
}

/**
 * The summary reads a project's environment's split or whole-day documents over a range of days;
 * the rebuild deletes a project's environment. Both walk this one index.
 */
export const paymentTotalsCollection: CollectionDef = {
  name: "payment_totals",
  indexes: [{ name: "payment_totals_level_days", keys: { projectId: 1, environment: 1, wholeDay: 1, day: 1 } }],
};

/** The key of the day's document over every method and account that `key`'s day counts in too. */
export const wholeDayKeyOf = (key: TotalsKey): TotalsKey => ({ projectId: key.projectId, environment: key.environment, day: key.day, paymentMethod: null, providerAccountId: null });

/**
 * The document id of a key: the same key always gives the same id, so upserts from any batch
 * meet on one document, and JSON keeps it unambiguous whatever characters the ids hold (a
 * whole day's id has three parts, a split one five).
 */
export function totalsIdOf(key: TotalsKey, wholeDay = false): string {
  return JSON.stringify(wholeDay ? [key.projectId, key.environment, key.day] : [key.projectId, key.environment, key.day, key.paymentMethod, key.providerAccountId]);
}

export function isZero(counters: TotalsCounters): boolean {
  return counterNames.every((name) => counters[name] === 0);
}
