/**
 * Bayad's names of the methods a payer pays with, as every resource reports the method it was
 * paid with (a checkout's `payment_method`, a provider payment's, a record's): the PaymentMethod
 * enum lower-cased. Adapters map their provider's spellings (PayMongo `paymaya`, Xendit `GCASH`…)
 * to these; a method outside the list (PayMongo's BillEase) is reported as unknown.
 */
export const PAYMENT_METHOD_NAMES = ["card", "qrph", "gcash", "maya", "grabpay", "shopeepay", "online_banking"] as const;
export type PaymentMethodName = (typeof PAYMENT_METHOD_NAMES)[number];

export const isPaymentMethodName = (value: string): value is PaymentMethodName => (PAYMENT_METHOD_NAMES as readonly string[]).includes(value);
