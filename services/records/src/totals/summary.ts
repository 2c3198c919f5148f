import { AppError, type CallerContext } from "@bayad/kit";
import type { PaymentTotals } from "@bayad/proto";
import { counterNames, type PaymentTotalsDoc } from "./totals-collection.js";
import { dayNumberOf, dayTextOf, granularities, periodIndexOf, periodsOf, type Granularity } from "./summary-periods.js";
import type { PaymentTotalsRepository } from "./totals-repository.js";

/** A summary request; empty text means "not given", as proto3 carries it. */
export interface SummaryInput {
  /** Philippine days, YYYY-MM-DD, both inclusive. */
  from: string;
  to: string;
  /** "day" (the default), "week" or "month". */
  granularity: string;
  /** "payment_method" and/or "provider_account". */
  groupBy: string[];
}

export const summaryGroups = ["payment_method", "provider_account"] as const;
type SummaryGroup = (typeof summaryGroups)[number];

/** The most rows (periods × groups) one answer holds. */
export const MAX_SUMMARY_ROWS = 10_000;

/** Sums over some totals documents: bigint, as the sum of many documents may pass 2^53. */
export type SummedTotals = Record<(typeof counterNames)[number], bigint>;

export interface SummaryRow {
  /** YYYY-MM-DD, clipped to the range asked. */
  start: string;
  end: string;
  /** Present when grouped by it; null: no method known / the sandbox. */
  paymentMethod?: string | null;
  providerAccountId?: string | null;
  totals: SummedTotals;
}

export interface PaymentsSummary {
  periods: SummaryRow[];
  total: SummedTotals;
}

const zeroSums = (): SummedTotals =>
  Object.fromEntries(counterNames.map((name) => [name, 0n])) as SummedTotals;

function addInto(sums: SummedTotals, doc: PaymentTotalsDoc): void {
  for (const name of counterNames) sums[name] += BigInt(doc[name]);
}

const isGranularity = (value: string): value is Granularity => (granularities as readonly string[]).includes(value);
const isGroup = (value: string): value is SummaryGroup => (summaryGroups as readonly string[]).includes(value);

/**
 * The caller's totals over a range of Philippine days: every period of the range in order (zero
 * totals when it has no records), and when grouped, every period split by each group that has
 * documents in the range (zero totals where it has none in that period), then a grand total.
 * Reads only the range's documents, through the payment_totals index: the cost follows days ×
 * methods × accounts, never the number of records.
 */
export async function getPaymentsSummary(
  totals: PaymentTotalsRepository,
  caller: Pick<CallerContext, "projectId" | "environment">,
  input: SummaryInput,
): Promise<PaymentsSummary> {
  const problems: string[] = [];
  const from = dayNumberOf(input.from);
  const to = dayNumberOf(input.to);
  if (from === null) problems.push("from: must be a day, YYYY-MM-DD");
  if (to === null) problems.push("to: must be a day, YYYY-MM-DD");
  if (from !== null && to !== null && from > to) problems.push("to: must not be before from");
  const granularity = input.granularity === "" ? "day" : input.granularity;
  if (!isGranularity(granularity)) problems.push(`granularity: must be one of ${granularities.join(", ")}`);
  const unknownGroups = input.groupBy.filter((group) => !isGroup(group));
  if (unknownGroups.length > 0) problems.push(`groupBy: must be among ${summaryGroups.join(", ")}`);
  if (problems.length > 0 || from === null || to === null || !isGranularity(granularity)) {
    throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  }
  const byMethod = input.groupBy.includes("payment_method");
  const byAccount = input.groupBy.includes("provider_account");

  const periods = periodsOf(from, to, granularity, MAX_SUMMARY_ROWS);
  if (periods === null) throw tooManyRows();
  // Without groups, the whole-day documents: one a day.
  const docs = await totals.findDays(caller, input.from, input.to, !(byMethod || byAccount));

  // The groups of the range, in a stable order (unknown method / sandbox first).
  const groupOf = (doc: PaymentTotalsDoc) => JSON.stringify([byMethod ? doc.paymentMethod : null, byAccount ? doc.providerAccountId : null]);
  const groupKeys = [...new Set(docs.map(groupOf))].sort(byGroup);
  const grouped = byMethod || byAccount;
  const columns = grouped && groupKeys.length > 0 ? groupKeys : [groupOf({ paymentMethod: null, providerAccountId: null } as PaymentTotalsDoc)];
  if (periods.length * columns.length > MAX_SUMMARY_ROWS) throw tooManyRows();

  const column = new Map(columns.map((key, index) => [key, index]));
  const cells = periods.map(() => columns.map(zeroSums));
  const total = zeroSums();
  for (const doc of docs) {
    const day = dayNumberOf(doc.day)!;
    addInto(cells[periodIndexOf(periods, day)][column.get(groupOf(doc)) ?? 0], doc);
    addInto(total, doc);
  }

  const rows: SummaryRow[] = [];
  periods.forEach((period, periodIndex) => {
    columns.forEach((key, columnIndex) => {
      const row: SummaryRow = { start: dayTextOf(period.start), end: dayTextOf(period.end), totals: cells[periodIndex][columnIndex] };
      // A grouped range without any documents lists each period once, ungrouped.
      if (grouped && groupKeys.length > 0) {
        const [paymentMethod, providerAccountId] = JSON.parse(key) as [string | null, string | null];
        if (byMethod) row.paymentMethod = paymentMethod;
        if (byAccount) row.providerAccountId = providerAccountId;
      }
      rows.push(row);
    });
  });
  return { periods: rows, total };
}

/** Orders group keys by method, then account, null (unknown, sandbox) before any name. */
function byGroup(a: string, b: string): number {
  const [left, right] = [JSON.parse(a) as (string | null)[], JSON.parse(b) as (string | null)[]];
  for (let index = 0; index < left.length; index++) {
    const [x, y] = [left[index] ?? null, right[index] ?? null];
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function tooManyRows(): AppError {
  return new AppError("VALIDATION_FAILED", undefined, {
    details: [`to: the range holds more than ${MAX_SUMMARY_ROWS} periods × groups; ask a shorter range or a longer granularity`],
  });
}

/** The wire form: counts as int64, sums as decimal integer text, net = paid − fees − refunded. */
export function paymentTotalsToProto(sums: SummedTotals): PaymentTotals {
  return {
    $typeName: "bayad.records.v1.PaymentTotals",
    paidCount: sums.paidCount,
    paidMinor: String(sums.paidMinor),
    failedCount: sums.failedCount,
    failedMinor: String(sums.failedMinor),
    refundedCount: sums.refundedCount,
    refundedMinor: String(sums.refundedMinor),
    feeMinor: String(sums.feeMinor),
    netMinor: String(sums.paidMinor - sums.feeMinor - sums.refundedMinor),
    unreportedFeeCount: sums.unreportedFeeCount,
  };
}
