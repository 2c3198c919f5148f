import type { IntentMethodOption, OnlineBankingBankCode, RedirectIntentMethod } from "../payment-intent-methods.js";

/**
 * Bayad's intent methods in PayMongo's Payment Intent spellings (paymongo.md §4 [O]): the
 * `payment_method_allowed` entry and the payment method's `type`, with `details.bank_code` for
 * banks. These are the PI types, not the Checkout Session names (`dob_ubp`, `brankas_bdo`…).
 */
export interface PaymongoIntentMethod {
  /** PayMongo's PI type. */
  type: "gcash" | "paymaya" | "grab_pay" | "shopeepay" | "dob" | "brankas";
  bankCode?: OnlineBankingBankCode;
}

const WALLET_TYPES: Record<Exclude<RedirectIntentMethod, "online_banking">, PaymongoIntentMethod["type"]> = {
  gcash: "gcash",
  maya: "paymaya",
  grabpay: "grab_pay",
  // `shopeepay` [O docs/payment-acceptance-e-wallets]; `shopee_pay` is UNCONF, so not sent.
  shopeepay: "shopeepay",
};

/** BPI and UBP are PayMongo's direct online banking (`dob`); BDO, Landbank and Metrobank go through Brankas [O]. */
const BANK_TYPES: Record<OnlineBankingBankCode, "dob" | "brankas"> = { bpi: "dob", ubp: "dob", bdo: "brankas", landbank: "brankas", metrobank: "brankas" };

export function paymongoIntentMethodOf(option: IntentMethodOption): PaymongoIntentMethod {
  if (option.type === "online_banking") {
    const bankCode = option.bankCode!;
    return { type: BANK_TYPES[bankCode], bankCode };
  }
  return { type: WALLET_TYPES[option.type] };
}

/**
 * What an account's enabled method types (as its provider account lists them, for checkout
 * sessions) offer on payment intents: a PI type or a Checkout Session name each stands for the
 * options below. `dob` alone names BPI and UBP on intents; the session names one bank each.
 * `shopee_pay` (UNCONF spelling) is read as ShopeePay too.
 */
const OFFERED_BY: Record<string, readonly IntentMethodOption[]> = {
  gcash: [{ type: "gcash" }],
  paymaya: [{ type: "maya" }],
  grab_pay: [{ type: "grabpay" }],
  shopeepay: [{ type: "shopeepay" }],
  shopee_pay: [{ type: "shopeepay" }],
  dob: [{ type: "online_banking", bankCode: "bpi" }, { type: "online_banking", bankCode: "ubp" }],
  dob_bpi: [{ type: "online_banking", bankCode: "bpi" }],
  dob_ubp: [{ type: "online_banking", bankCode: "ubp" }],
  brankas: [
    { type: "online_banking", bankCode: "bdo" },
    { type: "online_banking", bankCode: "landbank" },
    { type: "online_banking", bankCode: "metrobank" },
  ],
  brankas_bdo: [{ type: "online_banking", bankCode: "bdo" }],
  brankas_landbank: [{ type: "online_banking", bankCode: "landbank" }],
  brankas_metrobank: [{ type: "online_banking", bankCode: "metrobank" }],
};

/** The intent options an account's method types offer, each once, in the order listed. */
export function intentMethodOptionsOf(paymentMethodTypes: readonly string[]): IntentMethodOption[] {
  const seen = new Map<string, IntentMethodOption>();
  for (const type of paymentMethodTypes) for (const option of OFFERED_BY[type] ?? []) seen.set(`${option.type}:${option.bankCode ?? ""}`, option);
  return [...seen.values()];
}
