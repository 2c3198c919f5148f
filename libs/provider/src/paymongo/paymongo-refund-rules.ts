import type { AppError } from "@bayad/kit";
import { ProviderRefusedRefundError, type RefundedPayment } from "../port.js";
import type { PaymongoRejectedError } from "./paymongo-errors.js";

/** The rule a refusal names, in its details: `(rule: method_not_refundable)`. */
export type PaymongoRefundRule =
  | "provider_payment_unknown"
  | "method_not_refundable"
  | "refund_window_passed"
  | "refund_in_progress"
  | "below_minimum"
  | "full_refund_only";

/** How PayMongo refunds the payments of one method (paymongo.md §5). */
export interface PaymongoMethodRefunds {
  /** The method as a payer knows it, for messages. */
  label: string;
  /** False: PayMongo cannot refund it at all. */
  refundable: boolean;
  /** How long after payment a refund is accepted; months are calendar months. */
  window?: { days: number } | { months: number };
  /** Refunded only in full. */
  fullOnly?: boolean;
}

/**
 * PayMongo's refund rules by payment method, as its refunding-transactions page and refund-errors
 * page publish them. Keys are the method names a PayMongo payment or checkout reports (a
 * payment's `source.type`, a session's `payment_method_used`). A method missing here has no
 * known rule, and only PayMongo's own answer decides.
 */
export const PAYMONGO_REFUND_RULES: Readonly<Record<string, PaymongoMethodRefunds>> = {
  card: { label: "Card", refundable: true, window: { days: 60 } },
  gcash: { label: "GCash", refundable: true, window: { days: 180 } },
  // PayMongo's current table allows partial GrabPay and Maya refunds, but its v1 guide and its
  // refund-errors page (`parameter_above_maximum`: "full refund only for GrabPay/PayMaya") say
  // full only. Refusing partials up front costs a merchant a clear 4xx; allowing them would cost
  // a request PayMongo may refuse. The refusal path stays for when PayMongo settles it either way.
  grab_pay: { label: "GrabPay", refundable: true, window: { days: 90 }, fullOnly: true },
  paymaya: { label: "Maya", refundable: true, window: { months: 12 }, fullOnly: true },
  billease: { label: "BillEase", refundable: true, window: { days: 60 } },
  // Checkout names `dob` for BPI and `dob_ubp` for UBP; a payment intent's `dob` may be either
  // bank (the bank code is not on the payment), and both limits then are PayMongo's to apply.
  dob: { label: "BPI online banking", refundable: true, window: { days: 30 } },
  dob_bpi: { label: "BPI online banking", refundable: true, window: { days: 30 } },
  dob_ubp: { label: "UBP online banking", refundable: false },
  // Brankas banks: PayMongo sends the money to the merchant's bank account to return by hand.
  brankas: { label: "Online banking (Brankas)", refundable: true, window: { days: 30 } },
  brankas_bdo: { label: "BDO online banking", refundable: true, window: { days: 30 } },
  brankas_landbank: { label: "Landbank online banking", refundable: true, window: { days: 30 } },
  brankas_metrobank: { label: "Metrobank online banking", refundable: true, window: { days: 30 } },
  qrph: { label: "QR Ph", refundable: false },
};

/** PayMongo's smallest refund [O reference/refund-resource]. */
export const PAYMONGO_MINIMUM_REFUND_MINOR = 100;

const DAY_MS = 86_400_000;

/** The last moment a payment made at `paidAt` can be refunded under `window`. */
function windowEnd(paidAt: Date, window: NonNullable<PaymongoMethodRefunds["window"]>): Date {
  if ("days" in window) return new Date(paidAt.getTime() + window.days * DAY_MS);
  const end = new Date(paidAt);
  end.setUTCMonth(end.getUTCMonth() + window.months);
  return end;
}

const windowText = (window: NonNullable<PaymongoMethodRefunds["window"]>) => ("days" in window ? `${window.days} days` : `${window.months} months`);

function refusal(code: "REFUND_NOT_ALLOWED" | "REFUND_WINDOW_PASSED" | "REFUND_IN_PROGRESS", rule: PaymongoRefundRule, detail: string): ProviderRefusedRefundError {
  return new ProviderRefusedRefundError(code, undefined, { details: [`${detail} (rule: ${rule})`] });
}

/**
 * Why PayMongo would refuse to refund `amountMinor` of `payment` at `now`, by its published
 * rules: the catalogue's error naming the rule, or undefined when none applies. The amount is
 * assumed not to exceed what is left (Bayad's own reservation decides that).
 */
export function paymongoRefundRefusal(payment: RefundedPayment, amountMinor: number, now: Date): AppError | undefined {
  if (payment.providerPaymentId === undefined) {
    return refusal("REFUND_NOT_ALLOWED", "provider_payment_unknown", `paymentId: no PayMongo payment (pay_…) is known for ${payment.paymentId}, and PayMongo refunds a payment by its own id`);
  }
  const rules = payment.method === undefined ? undefined : PAYMONGO_REFUND_RULES[payment.method];
  if (rules && !rules.refundable) {
    return refusal("REFUND_NOT_ALLOWED", "method_not_refundable", `paymentId: ${rules.label} payments cannot be refunded at PayMongo`);
  }
  if (rules?.window && payment.paidAt !== undefined && now.getTime() > windowEnd(payment.paidAt, rules.window).getTime()) {
    return refusal(
      "REFUND_WINDOW_PASSED",
      "refund_window_passed",
      `paymentId: PayMongo refunds ${rules.label} payments within ${windowText(rules.window)} of payment; this one was paid on ${payment.paidAt.toISOString().slice(0, 10)}`,
    );
  }
  if (payment.openRefunds > 0) {
    return refusal("REFUND_IN_PROGRESS", "refund_in_progress", "paymentId: a refund of this payment is still pending, and PayMongo takes one refund of a payment at a time");
  }
  if (amountMinor < PAYMONGO_MINIMUM_REFUND_MINOR) {
    return refusal("REFUND_NOT_ALLOWED", "below_minimum", `amount.amountMinor: PayMongo refunds at least ${PAYMONGO_MINIMUM_REFUND_MINOR} centavos`);
  }
  if (rules?.fullOnly && (amountMinor !== payment.amountMinor || payment.refundableMinor !== payment.amountMinor)) {
    return refusal("REFUND_NOT_ALLOWED", "full_refund_only", `amount.amountMinor: PayMongo refunds ${rules.label} payments only in full (${payment.amountMinor} centavos)`);
  }
  return undefined;
}

/**
 * PayMongo codes that are not a decision about the refund: a concurrent duplicate of the same key,
 * or the key already used with other parameters (UNCONF code; a refund PayMongo may well have
 * made). The refund stays pending and is asked again, never failed while money may have moved.
 */
const NOT_A_DECISION = new Set(["idempotency_in_progress", "idempotency_key_mismatch"]);

/**
 * PayMongo's refusal of a refund (its 4xx to POST /refunds, which made nothing) as the same
 * catalogue error Bayad's own check of that rule answers, with PayMongo's code first in details
 * (`provider: resource_pending_state`) and what PayMongo said after it. Undefined when the answer
 * decides nothing (the caller rethrows it as it is).
 */
export function paymongoRefundRefusalOf(error: PaymongoRejectedError): ProviderRefusedRefundError | undefined {
  if (error.providerStatus === 401 || error.providerStatus === 429 || error.providerErrors.some((item) => NOT_A_DECISION.has(item.code))) return undefined;
  const codes = error.providerErrors.map((item) => item.code);
  const code = codes.some((c) => c === "resource_pending_state" || c === "resource_processing_state")
    ? "REFUND_IN_PROGRESS"
    : codes.includes("allowed_date_exceeded")
      ? "REFUND_WINDOW_PASSED"
      : "REFUND_NOT_ALLOWED";
  return new ProviderRefusedRefundError(code, "PayMongo refused the refund.", {
    details: [...codes.map((c) => `provider: ${c}`), ...(error.details ?? [])],
    cause: error,
  });
}
