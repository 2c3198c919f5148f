/**
 * Payment Intent method types: `payment_method_allowed` entries and a payment method's `type`
 * (paymongo.md §4 [O]). Banks are `dob` and `brankas`, each with a `details.bank_code`.
 */
export const PAYMENT_INTENT_TYPES = ["card", "gcash", "paymaya", "grab_pay", "shopeepay", "billease", "qrph", "dob", "brankas"] as const;

/** The bank codes each online-banking PI type takes in `details.bank_code` [O docs/payment-acceptance-direct-online-banking]. */
export const BANK_CODES: Readonly<Record<string, readonly string[]>> = { dob: ["bpi", "ubp"], brankas: ["bdo", "landbank", "metrobank"] };

/** PI types paid on the wallet's or bank's page: attach needs return_url and answers next_action.redirect [O]. */
export const REDIRECT_TYPES: readonly string[] = ["gcash", "paymaya", "grab_pay", "shopeepay", "billease", "dob", "brankas"];

/**
 * Checkout Session `payment_method_types` names (paymongo.md §3 [O docs/creating-webhook]), one
 * bank each; a different list from the PI types. ShopeePay's session name is UNCONF: both
 * `shopeepay` and `shopee_pay` are taken.
 */
export const CHECKOUT_METHOD_NAMES = [
  "card",
  "gcash",
  "paymaya",
  "grab_pay",
  "qrph",
  "billease",
  "dob",
  "dob_ubp",
  "brankas_bdo",
  "brankas_landbank",
  "brankas_metrobank",
  "shopeepay",
  "shopee_pay",
] as const;

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
