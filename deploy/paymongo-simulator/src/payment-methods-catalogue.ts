/** The payment method types the simulator accepts, and how each one is completed. */
export const PAYMENT_METHOD_TYPES = [
  "qrph",
  "gcash",
  "paymaya",
  "grab_pay",
  "card",
  "billease",
  "dob",
  "dob_ubp",
  "brankas_bdo",
  "brankas_landbank",
  "brankas_metrobank",
  "shopee_pay",
] as const;

export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/**
 * Fees the simulator charges, so that `fee` and `net_amount` are not zero. Illustrative rates of
 * the kind PayMongo publishes, not its price list: a percentage in basis points plus a fixed part
 * in centavos.
 */
const FEES: Partial<Record<string, { basisPoints: number; fixed: number }>> = {
  card: { basisPoints: 350, fixed: 1500 },
  gcash: { basisPoints: 250, fixed: 0 },
  paymaya: { basisPoints: 200, fixed: 0 },
  grab_pay: { basisPoints: 220, fixed: 0 },
  qrph: { basisPoints: 134, fixed: 0 },
};

export function feeFor(method: string, amount: number): number {
  const fee = FEES[method] ?? { basisPoints: 200, fixed: 0 };
  return Math.round((amount * fee.basisPoints) / 10_000) + fee.fixed;
}
