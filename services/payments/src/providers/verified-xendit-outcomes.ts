import { XENDIT_CHANNEL_FACTS, xenditChannelOf, xenditPaymentMethodOf, type PaymentMethodName, type XenditPaymentRequest, type XenditRefund, type XenditSession } from "@bayad/provider";
import type { CheckoutRecord } from "../checkouts/checkout.js";
import type { ProviderCheckoutOutcome } from "../checkouts/checkouts.js";
import type { PaymentIntentRecord } from "../payment-intents/payment-intent.js";
import type { ProviderPaymentIntentOutcome } from "../payment-intents/payment-intents.js";
import type { RefundRecord } from "../refunds/refund.js";
import type { ProviderRefundOutcome, Verdict } from "./verified-outcomes.js";

/**
 * What Xendit's own resources, read back with the account's key, say of a Bayad resource: the
 * same verdicts as PayMongo's (verified-outcomes.ts), by Xendit's fields. Bayad sends its own id
 * as `reference_id` on every session, payment request and refund it makes (a session's payment
 * request inherits the session's), so that is what names Bayad's resource; amounts are compared
 * in centavos (xendit-amounts.ts read them exactly, or not at all) and the currency must be
 * stated and the same. A callback's body is never read here.
 */

const open = { kind: "open" } as const;
const disagrees = (reason: string) => ({ kind: "disagrees", reason }) as const;

/** Names the mismatch: only ids, amounts and currencies. */
function mismatch(
  what: string,
  record: { _id: string; amountMinor: number; currency: string },
  found: { referenceId?: string | undefined; amountMinor?: number | undefined; currency?: string | undefined },
): string | undefined {
  if (found.referenceId !== record._id) return `${what}: reference_id is ${found.referenceId === undefined ? "absent" : `another id (${found.referenceId})`}`;
  if (found.amountMinor !== record.amountMinor) return `${what}: amount ${found.amountMinor ?? "absent or inexact"} is not ${record.amountMinor}`;
  if (found.currency !== record.currency) return `${what}: currency ${found.currency ?? "absent"} is not ${record.currency}`;
  return undefined;
}

/**
 * The Bayad method name of a Xendit channel (gcash, maya, …, qrph), which refund rules read back
 * to the channel, and fees and net group by. No fee: Xendit's payment fields confirm none (xendit.md).
 */
function methodOf(request: XenditPaymentRequest): { method?: string; paymentMethod?: PaymentMethodName } {
  const channel = request.channelCode === undefined ? undefined : xenditChannelOf(request.channelCode);
  if (channel === undefined) return {};
  const paymentMethod = xenditPaymentMethodOf(channel);
  return { method: XENDIT_CHANNEL_FACTS[channel].intentMethod ?? channel.toLowerCase(), ...(paymentMethod === undefined ? {} : { paymentMethod }) };
}

/**
 * A Payment Session pays a checkout only through its payment request (`payment_request_id`,
 * set once COMPLETED), read back in turn: `SUCCEEDED`, for the checkout's reference, amount and
 * currency. COMPLETED alone is not paid (xendit-statuses.ts). EXPIRED or CANCELED: nobody can
 * pay it any more, so the checkout expires. `request` is undefined until the caller read it.
 */
export function verifiedXenditCheckoutOutcome(
  record: Pick<CheckoutRecord, "_id" | "amountMinor" | "currency">,
  session: XenditSession,
  request: XenditPaymentRequest | undefined,
): Verdict<ProviderCheckoutOutcome> {
  const wrong = mismatch(`session ${session.id}`, record, session);
  if (wrong !== undefined) return disagrees(wrong);
  if (session.state === "expired" || session.state === "cancelled") return { kind: "settled", outcome: { status: "expired" } };
  if (session.state !== "completed") return open;
  if (request === undefined || request.id !== session.paymentRequestId) return disagrees(`session ${session.id}: completed without the payment request read back`);
  const wrongRequest = mismatch(`payment request ${request.id}`, record, request);
  if (wrongRequest !== undefined) return disagrees(wrongRequest);
  if (request.state !== "succeeded") return disagrees(`session ${session.id}: completed, but its payment request ${request.id} is ${request.state}`);
  return { kind: "settled", outcome: { status: "paid", providerPaymentId: request.id, ...methodOf(request) } };
}

/**
 * A payment request settles Bayad's intent: SUCCEEDED → succeeded (its id kept as the payment
 * Xendit refunds by); AUTHORIZED → processing once the payer acted; FAILED or CANCELED → failed;
 * EXPIRED → expired. Anything else (waiting for the payer, a status unknown) settles nothing.
 */
export function verifiedXenditPaymentIntentOutcome(
  record: Pick<PaymentIntentRecord, "_id" | "amountMinor" | "currency" | "status">,
  request: XenditPaymentRequest,
): Verdict<ProviderPaymentIntentOutcome> {
  const wrong = mismatch(`payment request ${request.id}`, record, request);
  if (wrong !== undefined) return disagrees(wrong);
  switch (request.state) {
    case "succeeded":
      return { kind: "settled", outcome: { status: "succeeded", providerPaymentId: request.id, ...methodOf(request) } };
    case "processing":
      return record.status === "awaiting_next_action" ? { kind: "settled", outcome: { status: "processing" } } : open;
    case "failed":
    case "cancelled":
      return { kind: "settled", outcome: { status: "failed" } };
    case "expired":
      return { kind: "settled", outcome: { status: "expired" } };
    default:
      return open;
  }
}

/**
 * A refund settles when Xendit's refund carries Bayad's refund id as its reference, refunds the
 * same amount in the same currency of the payment request Bayad recorded, and is SUCCEEDED or
 * FAILED (CANCELLED reads as failed: no money went back).
 */
export function verifiedXenditRefundOutcome(
  record: Pick<RefundRecord, "_id" | "amountMinor" | "currency" | "providerReference" | "providerPaymentId">,
  refund: XenditRefund,
): Verdict<ProviderRefundOutcome> {
  if (record.providerReference !== undefined && refund.id !== record.providerReference) return disagrees(`refund ${refund.id} is not ${record.providerReference}`);
  const wrong = mismatch(`refund ${refund.id}`, record, refund);
  if (wrong !== undefined) return disagrees(wrong);
  // Bayad keeps the payment request (pr-…) a Xendit payment is refunded by; a py-… one is read back to it by the adapter.
  if (record.providerPaymentId?.startsWith("pr-") && refund.paymentRequestId !== record.providerPaymentId) {
    return disagrees(`refund ${refund.id}: payment request ${refund.paymentRequestId ?? "absent"} is not ${record.providerPaymentId}`);
  }
  return refund.state === "succeeded" || refund.state === "failed" ? { kind: "settled", outcome: { status: refund.state, providerReference: refund.id, ...(refund.feeMinor === undefined ? {} : { fee: refund.feeMinor }) } } : open;
}
