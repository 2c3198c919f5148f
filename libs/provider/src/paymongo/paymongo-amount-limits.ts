import { AppError } from "@bayad/kit";

/**
 * PayMongo's per-method minimum and maximum amounts, in centavos [O paymongo.help "minimum and
 * maximum transaction amounts"; paymongo.md §2], checked before any PayMongo call so that a
 * payment PayMongo would refuse (or let a payer fail at) is a clear 4xx naming the limit.
 */

/** Which PayMongo API the amount goes to: limits differ (links start at ₱100). */
export type PaymongoFlow = "checkout_session" | "payment_intent" | "link";

export interface PaymongoAmountLimit {
  /** The smallest amount accepted, in centavos. */
  minMinor: number;
  /** The largest amount accepted, in centavos, when PayMongo publishes one. */
  maxMinor?: number;
  /** Cards take amounts *below* ₱10,000,000: the maximum itself is refused. */
  maxExclusive?: boolean;
}

// ₱20 for every method, matching the payment intent API's own minimum of 2000 [O].
const MIN_ALL = 20_00;
const E_WALLET = { minMinor: MIN_ALL, maxMinor: 100_000_00 };
const UBP_ONLINE = { minMinor: MIN_ALL, maxMinor: 100_000_00 };
// The merchant can have BPI raise it; the published default is what is checked.
const BPI_ONLINE = { minMinor: MIN_ALL, maxMinor: 50_000_00 };

/** Limits by method, under both the payment-intent type and the checkout-session name. */
const METHOD_LIMITS: Readonly<Record<string, PaymongoAmountLimit>> = {
  card: { minMinor: MIN_ALL, maxMinor: 10_000_000_00, maxExclusive: true },
  gcash: E_WALLET,
  paymaya: E_WALLET,
  grab_pay: E_WALLET,
  shopeepay: E_WALLET,
  // The ShopeePay name in checkout sessions is UNCONF; both spellings are limited alike.
  shopee_pay: E_WALLET,
  dob_ubp: UBP_ONLINE,
  dob_bpi: BPI_ONLINE,
  billease: { minMinor: 100_00, maxMinor: 40_000_00 },
  // Over-the-counter channels (7-Eleven and others).
  otc: { minMinor: MIN_ALL, maxMinor: 20_000_00 },
  // PayMongo publishes no QR Ph maximum (UNCONF). QR Ph payments clear through InstaPay, whose
  // per-transaction cap is ₱50,000: a larger code could be shown but no bank app would pay it.
  qrph: { minMinor: MIN_ALL, maxMinor: 50_000_00 },
};

/** The Links API takes ₱100 and up, whatever method the payer picks on the link's page. */
const LINK_LIMIT: PaymongoAmountLimit = { minMinor: 100_00 };

/**
 * The limit of `method` in `flow`. `dob` is BPI's online banking unless `bankCode` says `ubp`
 * (payment intents name the bank in `details.bank_code`; the checkout name `dob` is BPI's, as
 * `dob_ubp` is UBP's). A method with no published limit of its own has the ₱20 minimum only.
 */
export function paymongoAmountLimit(flow: PaymongoFlow, method: string, options: { bankCode?: string } = {}): PaymongoAmountLimit {
  if (flow === "link") return LINK_LIMIT;
  if (method === "dob") return options.bankCode === "ubp" ? UBP_ONLINE : BPI_ONLINE;
  return METHOD_LIMITS[method] ?? { minMinor: MIN_ALL };
}

/**
 * What is wrong with paying `amountMinor` by `method` in `flow`, one detail per problem naming
 * `amount.amountMinor`, the limit and the method; empty when PayMongo takes the amount.
 */
export function paymongoAmountProblems(flow: PaymongoFlow, method: string, amountMinor: number, options: { bankCode?: string } = {}): string[] {
  const limit = paymongoAmountLimit(flow, method, options);
  const what = flow === "link" ? "payment links" : method;
  if (amountMinor < limit.minMinor) {
    return [`amount.amountMinor: ${amountMinor} is below PayMongo's minimum of ${limit.minMinor} centavos for ${what}`];
  }
  if (limit.maxMinor !== undefined && (limit.maxExclusive ? amountMinor >= limit.maxMinor : amountMinor > limit.maxMinor)) {
    const bound = limit.maxExclusive ? `must be below ${limit.maxMinor}` : `maximum is ${limit.maxMinor}`;
    return [`amount.amountMinor: ${amountMinor} is above PayMongo's limit for ${what} (${bound} centavos)`];
  }
  return [];
}

function outOfRange(details: string[]): AppError {
  return new AppError("AMOUNT_OUT_OF_RANGE", "PayMongo does not accept this amount for this payment method.", { details });
}

/** Throws AMOUNT_OUT_OF_RANGE (422) when PayMongo would not take `amountMinor` by `method`. */
export function assertPaymongoAmount(flow: PaymongoFlow, method: string, amountMinor: number, options: { bankCode?: string } = {}): void {
  const problems = paymongoAmountProblems(flow, method, amountMinor, options);
  if (problems.length > 0) throw outOfRange(problems);
}

/**
 * The checkout-session methods of `methods` that take `amountMinor`: a session offers the payer
 * only those, so nobody picks a method that cannot pay it. Throws AMOUNT_OUT_OF_RANGE, naming
 * each method's limit, when none does.
 */
export function checkoutMethodsAccepting(methods: readonly string[], amountMinor: number): string[] {
  if (methods.length === 0) return [];
  const accepting = methods.filter((method) => paymongoAmountProblems("checkout_session", method, amountMinor).length === 0);
  if (accepting.length === 0) throw outOfRange(methods.flatMap((method) => paymongoAmountProblems("checkout_session", method, amountMinor)));
  return accepting;
}
