import type { AttributeReader } from "./attribute-reader.js";

/**
 * PayMongo's per-method amount limits in centavos [O paymongo.help "minimum and maximum
 * transaction amounts", paymongo.md §2]: ₱20 minimum for every method (the API's own 2000);
 * e-wallets and UBP online up to ₱100,000; BPI online up to ₱50,000; over-the-counter up to
 * ₱20,000; BillEase ₱100 to ₱40,000; cards below ₱10,000,000.
 *
 * QR Ph's maximum is not published (UNCONF); the simulator takes the most likely one, InstaPay's
 * ₱50,000 per transfer, which QR Ph payments clear through.
 */
interface Limit {
  min?: number;
  max?: number;
  /** Cards: the amount must be below max. */
  below?: boolean;
}

const E_WALLET: Limit = { max: 10_000_000 };

const LIMITS: Readonly<Record<string, Limit>> = {
  card: { max: 1_000_000_000, below: true },
  gcash: E_WALLET,
  paymaya: E_WALLET,
  grab_pay: E_WALLET,
  shopeepay: E_WALLET,
  shopee_pay: E_WALLET,
  // Checkout names: `dob` is BPI's online banking, `dob_ubp` UBP's. A payment intent's `dob`
  // names its bank only on the payment method, so an intent is checked against the larger, UBP's.
  dob: { max: 5_000_000 },
  dob_ubp: { max: 10_000_000 },
  billease: { min: 10_000, max: 4_000_000 },
  qrph: { max: 5_000_000 },
};

/**
 * Fails `field` (parameter_below_minimum / parameter_above_maximum) for each method of `methods`
 * that cannot take `amount`, as PayMongo refuses an amount a method it is asked to offer cannot pay.
 */
export function checkMethodAmounts(r: AttributeReader, field: string, amount: number, methods: readonly string[], flow: "checkout_session" | "payment_intent"): void {
  for (const method of methods) {
    const limit = flow === "payment_intent" && method === "dob" ? LIMITS["dob_ubp"] : LIMITS[method];
    if (!limit) continue;
    if (limit.min !== undefined && amount < limit.min) {
      r.fail(field, "parameter_below_minimum", `The amount cannot be less than ${limit.min} for ${method}.`);
    } else if (limit.max !== undefined && (limit.below ? amount >= limit.max : amount > limit.max)) {
      r.fail(field, "parameter_above_maximum", `The amount must be ${limit.below ? "less than" : "at most"} ${limit.max} for ${method}.`);
    }
  }
}

/** The Links API's minimum, ₱100 [O]. */
export const LINK_MINIMUM_AMOUNT = 10_000;
