/**
 * PayMongo's per-method amount limits (paymongo.md §2 [O paymongo.help]), checked before any
 * provider call so that a live request PayMongo would refuse is answered with the limit it breaks.
 * Minimal version for payment intents paid by redirect; the full table (checkouts, links, cards,
 * BillEase) is another change's and replaces this one when merged.
 */
const MIN_MINOR = 2000;
const EWALLET_MAX_MINOR = 10_000_000;

/** Maximums by PayMongo PI type, then by bank code for the online-banking types. */
const MAX_BY_TYPE: Record<string, number> = { gcash: EWALLET_MAX_MINOR, paymaya: EWALLET_MAX_MINOR, grab_pay: EWALLET_MAX_MINOR, shopeepay: EWALLET_MAX_MINOR };
const MAX_BY_BANK: Record<string, number> = { bpi: 5_000_000, ubp: 10_000_000 };

export type PaymongoFlow = "payment_intent";

/**
 * What is wrong with `amountMinor` for `method` (a PayMongo PI type) in `flow`, one string per
 * problem naming `amount.amountMinor` and the limit; empty when PayMongo would take it.
 */
export function paymongoAmountProblems(_flow: PaymongoFlow, method: string, amountMinor: number, bankCode?: string): string[] {
  const max = (bankCode !== undefined ? MAX_BY_BANK[bankCode] : undefined) ?? MAX_BY_TYPE[method];
  const label = bankCode !== undefined ? `${method} (${bankCode})` : method;
  if (amountMinor < MIN_MINOR) return [`amount.amountMinor: PayMongo's minimum for ${label} is ${MIN_MINOR} centavos`];
  if (max !== undefined && amountMinor > max) return [`amount.amountMinor: PayMongo's maximum for ${label} is ${max} centavos`];
  return [];
}
