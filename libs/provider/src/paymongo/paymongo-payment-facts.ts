import type { PaymentMethodName } from "../payment-methods.js";

/**
 * PayMongo's spellings of a payment's method (its `source.type` or `payment_method_type`: PI
 * types and Checkout Session names, paymongo.md §3–4 [O]) in Bayad's names. `shopee_pay` (UNCONF)
 * is read as ShopeePay; BillEase has no Bayad name and reads as unknown.
 */
const BAYAD_NAMES: Record<string, PaymentMethodName> = {
  card: "card",
  qrph: "qrph",
  gcash: "gcash",
  paymaya: "maya",
  grab_pay: "grabpay",
  shopeepay: "shopeepay",
  shopee_pay: "shopeepay",
  dob: "online_banking",
  dob_bpi: "online_banking",
  dob_ubp: "online_banking",
  brankas: "online_banking",
  brankas_bdo: "online_banking",
  brankas_landbank: "online_banking",
  brankas_metrobank: "online_banking",
};

export const paymongoPaymentMethodOf = (type: string | undefined): PaymentMethodName | undefined =>
  type === undefined ? undefined : BAYAD_NAMES[type];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const centavos = (value: unknown): number | undefined => (typeof value === "number" && Number.isSafeInteger(value) ? value : undefined);

/**
 * What PayMongo kept of a payment or link, tax on the fee included, in centavos; undefined when it
 * reported nothing usable. `amount − net_amount` first ([O] payment fields): the net is what
 * reaches the merchant, whatever the tax is called. Else `fee` plus every `taxes[].amount` ([O]
 * link fields; the tax entries' shape beyond `amount` is not relied on). A reading below zero or
 * above the amount is no fee and reads as unreported.
 */
export function paymongoFeeOf(attributes: Record<string, unknown>): number | undefined {
  const amount = centavos(attributes.amount);
  const net = centavos(attributes.net_amount);
  const fee = net !== undefined && amount !== undefined ? amount - net : feePlusTaxes(attributes);
  if (fee === undefined || fee < 0 || (amount !== undefined && fee > amount)) return undefined;
  return fee;
}

function feePlusTaxes(attributes: Record<string, unknown>): number | undefined {
  const fee = centavos(attributes.fee);
  if (fee === undefined) return undefined;
  const taxes = Array.isArray(attributes.taxes) ? attributes.taxes : [];
  return taxes.reduce<number>((sum, tax) => sum + (isObject(tax) ? (centavos(tax.amount) ?? 0) : 0), fee);
}
