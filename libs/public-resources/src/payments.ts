import {
  CheckoutStatusSchema,
  PaymentIntentStatus,
  PaymentIntentStatusSchema,
  PaymentMethodSchema,
  RefundStatusSchema,
  type Checkout,
  type Customer,
  type PaymentIntent,
  type Refund,
} from "@bayad/proto";
import { enumToText, enumToTextOrNull, publicPaymentIntentStatus } from "@bayad/kit";
import { dateField, moneyToJson, optionalField, required, type PublicUrl } from "./json.js";

/** The provider and the project's provider account that took a payment (routing chose it), when known. */
function tookPayment(payment: { provider: string; providerAccountId: string }) {
  return { ...optionalField("provider", payment.provider), ...optionalField("providerAccountId", payment.providerAccountId) };
}

type ProtoMoney = { amountMinor: bigint; currency: string };

/**
 * What the provider kept of a paid payment (`fee`) and what reached the merchant (`netAmount`,
 * the amount less the fee), each null while unpaid or when the provider reported no fee.
 */
function feeAndNet(amount: ProtoMoney | undefined, fee: ProtoMoney | undefined) {
  if (fee === undefined || amount === undefined) return { fee: null, netAmount: null };
  return { fee: moneyToJson(fee), netAmount: moneyToJson({ amountMinor: amount.amountMinor - fee.amountMinor, currency: amount.currency }) };
}

export function customerToJson(customer: Customer | undefined) {
  const c = required(customer, "customer");
  return {
    customerId: c.customerId,
    customerReference: c.customerReference,
    email: c.email,
    ...optionalField("name", c.name),
    ...optionalField("phone", c.phone),
    ...optionalField("locale", c.locale),
  };
}

export function checkoutToJson(checkout: Checkout | undefined, publicUrl: PublicUrl) {
  const c = required(checkout, "checkout");
  return {
    checkoutId: c.checkoutId,
    referenceId: c.referenceId,
    status: enumToText(CheckoutStatusSchema, c.status),
    amount: moneyToJson(c.amount),
    ...(c.checkoutUrl ? { checkoutUrl: publicUrl(c.checkoutUrl) } : {}),
    aggregateVersion: c.aggregateVersion,
    ...tookPayment(c),
    // Bayad's name of the method the payer used; null until paid, or when the provider did not say.
    paymentMethod: c.paymentMethod === "" ? null : c.paymentMethod,
    ...feeAndNet(c.amount, c.fee),
  };
}

/**
 * A payment intent as the API answers it. An intent paid by redirect (an e-wallet, online banking)
 * also shows its method and returnUrl, and, while the payer has yet to act, `nextAction`: the page
 * to send the payer to (a sandbox path made absolute with `publicUrl`). A QR Ph intent whose code
 * is unpaid shows its `qrCodeImageUrl`, as its creation answered it.
 */
export function paymentIntentToJson(intent: PaymentIntent | undefined, publicUrl: PublicUrl) {
  const i = required(intent, "payment intent");
  const method = enumToTextOrNull(PaymentMethodSchema, i.paymentMethod);
  const redirect = method !== null && method !== "card" && method !== "qrph";
  return {
    paymentIntentId: i.paymentIntentId,
    referenceId: i.referenceId,
    status: publicPaymentIntentStatus(enumToText(PaymentIntentStatusSchema, i.status)),
    amount: moneyToJson(i.amount),
    aggregateVersion: i.aggregateVersion,
    ...tookPayment(i),
    ...feeAndNet(i.amount, i.fee),
    ...(redirect ? { paymentMethod: { type: method, ...optionalField("bankCode", i.bankCode) }, ...optionalField("returnUrl", i.returnUrl) } : {}),
    ...(i.nextAction?.url ? { nextAction: { type: "redirect", url: publicUrl(i.nextAction.url) } } : {}),
    // The code to show the payer, while it can still be paid: its `requires_action` event carries it too.
    ...(method === "qrph" && i.status === PaymentIntentStatus.AWAITING_NEXT_ACTION && i.qrCodeImageUrl ? { qrCodeImageUrl: publicUrl(i.qrCodeImageUrl) } : {}),
  };
}

export function qrPhPaymentIntentToJson(intent: PaymentIntent | undefined, publicUrl: PublicUrl) {
  const i = required(intent, "payment intent");
  return {
    paymentIntentId: i.paymentIntentId,
    referenceId: i.referenceId,
    // What creation produced: the code is ready. Later states are read with getPaymentIntent.
    status: "awaiting_next_action",
    amount: moneyToJson(i.amount),
    qrCodeImageUrl: publicUrl(i.qrCodeImageUrl),
    expirySeconds: i.expirySeconds,
    aggregateVersion: i.aggregateVersion,
    ...tookPayment(i),
    ...feeAndNet(i.amount, i.fee),
    ...dateField("expiresAt", i.expiresAt),
  };
}

export function refundToJson(refund: Refund | undefined) {
  const r = required(refund, "refund");
  return {
    refundId: r.refundId,
    paymentId: r.paymentId,
    status: enumToText(RefundStatusSchema, r.status),
    amount: moneyToJson(r.amount),
    ...optionalField("reason", r.reason),
    // What the provider charged for the refund, once reported; null before or when it reports none.
    fee: r.fee === undefined ? null : moneyToJson(r.fee),
  };
}
