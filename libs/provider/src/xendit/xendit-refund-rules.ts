import type { AppError } from "@bayad/kit";
import { ProviderRefusedRefundError, type RefundedPayment } from "../port.js";
import { XENDIT_CHANNEL_FACTS, xenditChannelOf } from "./xendit-channels.js";
import type { XenditRejectedError } from "./xendit-errors.js";

const DAY_MS = 86_400_000;

function refusal(code: "REFUND_NOT_ALLOWED" | "REFUND_WINDOW_PASSED" | "REFUND_IN_PROGRESS", rule: string, detail: string): ProviderRefusedRefundError {
  return new ProviderRefusedRefundError(code, undefined, { details: [`${detail} (rule: ${rule})`] });
}

/**
 * Why Xendit would refuse to refund `amountMinor` of `payment` at `now`, by its published rules
 * [O xendit.md §5]: QR Ph is never refunded, each e-wallet has its window, and one refund of a
 * payment may be pending at a time (REFUND_IN_PROGRESS). `payment.method` is the Xendit channel
 * (`QRPH`, `GCASH`…; Bayad's names are read too). Partial refunds are allowed on every served
 * channel, so none is refused for being partial.
 */
export function xenditRefundRefusal(payment: RefundedPayment, _amountMinor: number, now: Date): AppError | undefined {
  if (payment.providerPaymentId === undefined) {
    return refusal(
      "REFUND_NOT_ALLOWED",
      "provider_payment_unknown",
      `paymentId: no Xendit payment request (pr-…) or invoice is known for ${payment.paymentId}, and Xendit refunds a payment by one of them`,
    );
  }
  const channel = payment.method === undefined ? undefined : xenditChannelOf(payment.method);
  const facts = channel === undefined ? undefined : XENDIT_CHANNEL_FACTS[channel];
  if (facts && !facts.refundable) {
    return refusal("REFUND_NOT_ALLOWED", "method_not_refundable", `paymentId: ${facts.label} payments cannot be refunded at Xendit`);
  }
  if (facts?.refundWindowDays !== undefined && payment.paidAt !== undefined && now.getTime() > payment.paidAt.getTime() + facts.refundWindowDays * DAY_MS) {
    return refusal(
      "REFUND_WINDOW_PASSED",
      "refund_window_passed",
      `paymentId: Xendit refunds ${facts.label} payments within ${facts.refundWindowDays} days of payment; this one was paid on ${payment.paidAt.toISOString().slice(0, 10)}`,
    );
  }
  if (payment.openRefunds > 0) {
    return refusal("REFUND_IN_PROGRESS", "refund_in_progress", "paymentId: a refund of this payment is still pending, and Xendit takes one refund of a payment at a time");
  }
  return undefined;
}

/**
 * Xendit's refusal of a refund (a 4xx to POST /refunds, which made nothing [O xendit.md §5]) as
 * the catalogue error Bayad's own check of that rule answers, Xendit's code first in details.
 * Undefined when the answer decides nothing: a 409 (the idempotency-key already used, a refund
 * Xendit may well have made) or a 404 (a wrong id is Bayad's fault to look into, not the payer's).
 */
export function xenditRefundRefusalOf(error: XenditRejectedError): ProviderRefusedRefundError | undefined {
  if (error.failure !== "rejected") return undefined;
  const code = error.errorCode === "REFUND_IN_PROGRESS" ? "REFUND_IN_PROGRESS" : "REFUND_NOT_ALLOWED";
  return new ProviderRefusedRefundError(code, "Xendit refused the refund.", {
    details: [`provider: ${error.errorCode}`, ...(error.details ?? [])],
    cause: error,
  });
}
