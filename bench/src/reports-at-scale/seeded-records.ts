import { randomBytes } from "node:crypto";

/**
 * The payment records the reports-at-scale run seeds: checkouts, payment intents and refunds of
 * every status, method and provider account, with fees (some unreported), metadata, and creation
 * times spread over `days` days. Written as services/records stores a projected record
 * (payment-record.ts's PaymentRecordDoc), restated here so the run can also total them by
 * itself: `expectedTotals` is the definition written a second time, independently of the
 * records service's code, which is what the summary is checked against.
 */
export interface SeededRecord {
  _id: string;
  type: "checkout" | "payment_intent" | "refund";
  projectId: string;
  environment: "test";
  referenceId: string | null;
  relatedResourceId: string | null;
  amountMinor: string;
  amount: number;
  currency: "PHP";
  status: string;
  provider: string;
  providerAccountId: string | null;
  paymentMethod: string;
  customerId: null;
  fee: number | null;
  metadata: Record<string, string> | null;
  metadataPairs: string[];
  createdAt: Date;
  aggregateVersion: number;
  updatedAt: Date;
}

const methods = ["card", "qrph", "gcash", "maya", "grabpay", "shopeepay", "online_banking"] as const;
/** Where a payment was made: the sandbox (no account), or one of two accounts of the project. */
const accounts = [
  { provider: "sandbox", providerAccountId: null, reportsFees: true },
  { provider: "paymongo", providerAccountId: "pa_seed_paymongo", reportsFees: true },
  { provider: "xendit", providerAccountId: "pa_seed_xendit", reportsFees: false },
] as const;

/** The one record whose metadata the search looks for. */
export const needle = { key: "campaign", value: "needle-7f3a" };

/** mulberry32: a small seeded generator, so two runs seed the same mix. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(next: () => number, values: readonly T[]): T => values[Math.floor(next() * values.length)];

function statusOf(type: SeededRecord["type"], roll: number): string {
  if (type === "checkout") return roll < 0.6 ? "paid" : roll < 0.7 ? "failed" : roll < 0.9 ? "pending" : "expired";
  if (type === "payment_intent") return roll < 0.6 ? "succeeded" : roll < 0.75 ? "failed" : "awaiting_next_action";
  return roll < 0.8 ? "succeeded" : roll < 0.95 ? "pending" : "failed";
}

/**
 * `count` records of `projectId`, created at even steps from `first` to `last`, oldest first;
 * record `needleIndex` carries the needle's metadata pair and no other record does.
 */
export function* seededRecords(projectId: string, count: number, first: Date, last: Date, needleIndex: number): Generator<SeededRecord> {
  const next = random(45);
  const run = randomBytes(4).toString("hex");
  const step = count > 1 ? (last.getTime() - first.getTime()) / (count - 1) : 0;
  let lastPaymentId = "";
  for (let index = 0; index < count; index++) {
    const roll = next();
    const type: SeededRecord["type"] = lastPaymentId === "" || roll < 0.7 ? "checkout" : roll < 0.9 ? "payment_intent" : "refund";
    const status = statusOf(type, next());
    const account = pick(next, accounts);
    const paymentMethod = pick(next, methods);
    const gross = 100_00 + Math.floor(next() * 4_900_00);
    const amount = type === "refund" ? -gross : gross;
    const settled = status === "paid" || status === "succeeded";
    let fee: number | null = null;
    if (type !== "refund" && settled && account.reportsFees) fee = Math.round(gross * 0.025);
    if (type === "refund" && settled && account.provider === "xendit" && next() < 0.5) fee = 5_00;
    const id = `${type === "refund" ? "ref" : type === "checkout" ? "chk" : "pi"}_seed${run}${index.toString(36)}`;
    const metadata = index === needleIndex ? { [needle.key]: needle.value } : type === "checkout" ? { order: `order-${run}-${index}` } : null;
    const createdAt = new Date(Math.round(first.getTime() + index * step));
    yield {
      _id: id,
      type,
      projectId,
      environment: "test",
      referenceId: type === "refund" ? null : `ref-${run}-${index}`,
      relatedResourceId: type === "refund" ? lastPaymentId : null,
      amountMinor: String(amount),
      amount,
      currency: "PHP",
      status,
      provider: account.provider,
      providerAccountId: account.providerAccountId,
      paymentMethod,
      customerId: null,
      fee,
      metadata,
      metadataPairs: metadata === null ? [] : Object.entries(metadata).map((pair) => JSON.stringify(pair)),
      createdAt,
      aggregateVersion: 3,
      updatedAt: createdAt,
    };
    if (type !== "refund") lastPaymentId = id;
  }
}

/** The summary's totals, as numbers (the API's *Minor are decimal text). */
export interface Totals {
  paidCount: number;
  paidMinor: number;
  failedCount: number;
  failedMinor: number;
  refundedCount: number;
  refundedMinor: number;
  feeMinor: number;
  netMinor: number;
  unreportedFeeCount: number;
}

export const zeroTotals = (): Totals => ({
  paidCount: 0,
  paidMinor: 0,
  failedCount: 0,
  failedMinor: 0,
  refundedCount: 0,
  refundedMinor: 0,
  feeMinor: 0,
  netMinor: 0,
  unreportedFeeCount: 0,
});

/** The Philippine calendar day (UTC+8 all year) of an instant, YYYY-MM-DD. */
export const manilaDay = (at: Date): string => new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

/** Adds one record to `totals` by the definition (docs/api/records.md, "Totals"). */
export function addRecord(totals: Totals, record: SeededRecord): void {
  const paid = (record.type === "checkout" && record.status === "paid") || (record.type === "payment_intent" && record.status === "succeeded");
  if (paid) {
    totals.paidCount += 1;
    totals.paidMinor += record.amount;
    if (record.fee === null) totals.unreportedFeeCount += 1;
    else totals.feeMinor += record.fee;
  } else if (record.type !== "refund" && record.status === "failed") {
    totals.failedCount += 1;
    totals.failedMinor += record.amount;
  } else if (record.type === "refund" && record.status === "succeeded") {
    totals.refundedCount += 1;
    totals.refundedMinor += -record.amount;
    totals.feeMinor += record.fee ?? 0;
  }
  totals.netMinor = totals.paidMinor - totals.feeMinor - totals.refundedMinor;
}
