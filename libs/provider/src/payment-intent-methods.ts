/**
 * Bayad's provider-neutral names of the methods a payment intent can be paid with by redirect:
 * the payer authorises the payment on a page of the wallet or bank, then comes back to the
 * merchant's returnUrl. The one list the proto mapping, the gateway, the capabilities and the
 * adapters use; a provider's own spellings (PayMongo's `paymaya`, `dob`…) stay in its adapter.
 * Checkout sessions name their methods differently (PayMongo's `dob_ubp`, `brankas_bdo`…): that
 * is another list, in the PayMongo adapter, and never mixed with this one.
 */
export const REDIRECT_INTENT_METHODS = ["gcash", "maya", "grabpay", "shopeepay", "online_banking"] as const;
export type RedirectIntentMethod = (typeof REDIRECT_INTENT_METHODS)[number];

/** The banks an `online_banking` intent can name (its `bankCode`). */
export const ONLINE_BANKING_BANK_CODES = ["bpi", "ubp", "bdo", "landbank", "metrobank"] as const;
export type OnlineBankingBankCode = (typeof ONLINE_BANKING_BANK_CODES)[number];

/** One way to pay an intent by redirect, as a create request names it and capabilities list it. */
export interface IntentMethodOption {
  type: RedirectIntentMethod;
  /** Set for `online_banking` only. */
  bankCode?: OnlineBankingBankCode;
}

export const isRedirectIntentMethod = (value: string): value is RedirectIntentMethod =>
  (REDIRECT_INTENT_METHODS as readonly string[]).includes(value);

export const isOnlineBankingBankCode = (value: string): value is OnlineBankingBankCode =>
  (ONLINE_BANKING_BANK_CODES as readonly string[]).includes(value);

/** Every option: each method once, online banking once per bank (what the sandbox offers). */
export const ALL_INTENT_METHOD_OPTIONS: readonly IntentMethodOption[] = REDIRECT_INTENT_METHODS.flatMap((type): IntentMethodOption[] =>
  type === "online_banking" ? ONLINE_BANKING_BANK_CODES.map((bankCode) => ({ type, bankCode })) : [{ type }],
);

/**
 * What is wrong with a requested method, one string per problem naming the field (empty: fine).
 * `online_banking` needs a bankCode; the others take none.
 */
export function intentMethodProblems(method: { type: string; bankCode?: string }): string[] {
  if (!isRedirectIntentMethod(method.type)) {
    return [`paymentMethod.type: must be one of ${REDIRECT_INTENT_METHODS.join(", ")}`];
  }
  if (method.type === "online_banking") {
    if (method.bankCode === undefined || method.bankCode === "") return ["paymentMethod.bankCode: is required for online_banking"];
    if (!isOnlineBankingBankCode(method.bankCode)) return [`paymentMethod.bankCode: must be one of ${ONLINE_BANKING_BANK_CODES.join(", ")}`];
    return [];
  }
  return method.bankCode ? [`paymentMethod.bankCode: only online_banking takes a bankCode`] : [];
}

const keyOf = (option: { type: string; bankCode?: string }) => `${option.type}:${option.bankCode ?? ""}`;

/** Whether `asked` is one of the `offered` options (the bank counts for online_banking). */
export const offersIntentMethod = (offered: readonly IntentMethodOption[], asked: { type: string; bankCode?: string }) =>
  offered.some((option) => keyOf(option) === keyOf(asked));
