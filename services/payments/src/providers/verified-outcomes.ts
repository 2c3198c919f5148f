import { BAYAD_RESOURCE_ID, type PaymongoCheckoutSessionState, type PaymongoPaymentIntentState, type PaymongoRefundState, type PaymongoPaymentState } from "@bayad/provider";
import type { CheckoutRecord } from "../checkouts/checkout.js";
import type { ProviderCheckoutOutcome } from "../checkouts/checkouts.js";
import type { PaymentIntentRecord } from "../payment-intents/payment-intent.js";
import type { ProviderPaymentIntentOutcome } from "../payment-intents/payment-intents.js";
import type { RefundRecord } from "../refunds/refund.js";

/**
 * What PayMongo's own resource, read back with the account's key, says of a Bayad resource:
 * `settled` with the outcome to apply; `open` when it shows nothing final yet; `disagrees` when it
 * is not the resource Bayad made (another Bayad id in its metadata) or not for the same money.
 * These are the only judges of a provider outcome: a webhook (whatever it claims) and the
 * reconciler both read the resource and apply only a `settled` verdict.
 */
export type Verdict<O> = { kind: "settled"; outcome: O } | { kind: "open" } | { kind: "disagrees"; reason: string };

/** `fee`: what the provider charged for the refund, when its refund says (PayMongo's documents none). */
export type ProviderRefundOutcome = { status: "succeeded" | "failed"; providerReference: string; fee?: number };

const open = { kind: "open" } as const;
const disagrees = (reason: string) => ({ kind: "disagrees", reason }) as const;

/** Names the mismatch (never a value a payer typed: only ids, amounts and currencies). */
function mismatch(
  record: { _id: string; amountMinor: number; currency: string },
  found: { metadata: Record<string, string>; amount: number; currency?: string | undefined },
): string | undefined {
  const bayadId = found.metadata[BAYAD_RESOURCE_ID];
  if (bayadId !== record._id) return `metadata.${BAYAD_RESOURCE_ID} is ${bayadId === undefined ? "absent" : `another id (${bayadId})`}`;
  if (found.amount !== record.amountMinor) return `amount ${found.amount} is not ${record.amountMinor}`;
  // PayMongo always states the currency of a payment, intent and refund ([O]); one it left out is not agreement.
  if (found.currency !== record.currency) return `currency ${found.currency ?? "absent"} is not ${record.currency}`;
  return undefined;
}

/**
 * The payer's method and PayMongo's payment time, which refund rules (method, window) need; the
 * method in Bayad's names and PayMongo's fee, which fees and net need.
 */
const methodAndTime = (payment: PaymongoPaymentState) => ({
  ...(payment.method !== undefined ? { method: payment.method } : {}),
  ...(payment.paymentMethod !== undefined ? { paymentMethod: payment.paymentMethod } : {}),
  ...(payment.paidAt !== undefined ? { paidAt: payment.paidAt } : {}),
  ...(payment.fee !== undefined ? { fee: payment.fee } : {}),
});

/**
 * A checkout session pays a checkout only through a `payments[]` entry with status `paid` for the
 * checkout's amount and currency; the session's own `status` is never read for that, since a
 * paid session still says `active` ([O]). `expired` ([3P]) with no paid payment expires it.
 */
export function verifiedCheckoutOutcome(
  record: Pick<CheckoutRecord, "_id" | "amountMinor" | "currency">,
  session: PaymongoCheckoutSessionState,
): Verdict<ProviderCheckoutOutcome> {
  const bayadId = session.metadata[BAYAD_RESOURCE_ID];
  if (bayadId !== record._id) return disagrees(`session ${session.id}: metadata.${BAYAD_RESOURCE_ID} is ${bayadId ?? "absent"}`);
  const paid = session.payments.filter((payment) => payment.status === "paid");
  for (const payment of paid) {
    const wrong = mismatch(record, { metadata: session.metadata, amount: payment.amount, currency: payment.currency });
    if (wrong === undefined) return { kind: "settled", outcome: { status: "paid", providerPaymentId: payment.id, ...methodAndTime(payment) } };
  }
  if (paid.length > 0) return disagrees(`session ${session.id}: no paid payment for ${record.amountMinor} ${record.currency}`);
  return session.status === "expired" ? { kind: "settled", outcome: { status: "expired" } } : open;
}

/**
 * A payment intent succeeds when PayMongo's intent (Bayad's id in its metadata, the same amount
 * and currency) is `succeeded` with a paid payment; a redirect intent the payer has acted on is
 * `processing` while PayMongo reads `processing`. It fails when PayMongo moved it back to
 * `awaiting_payment_method` with a `last_payment_error`.
 *
 * QR Ph expiry: Bayad's intent reaches `awaiting_next_action` only after PayMongo answered the
 * attach with `awaiting_next_action`, and PayMongo moves an attached intent back to
 * `awaiting_payment_method` without an error only when its code expired ([O]: "expired QR").
 * So that reading, with no paid payment, is PayMongo's own word that the code is gone and no
 * money moved: the intent expires. A `qrph.expired` event alone never expires it (PayMongo's
 * intent still awaiting the scan disagrees), and the intent's own `expiresAt` is enforced by the
 * expiry sweep, not here.
 */
export function verifiedPaymentIntentOutcome(
  record: Pick<PaymentIntentRecord, "_id" | "amountMinor" | "currency" | "status">,
  intent: PaymongoPaymentIntentState,
): Verdict<ProviderPaymentIntentOutcome> {
  const wrong = mismatch(record, intent);
  if (wrong !== undefined) return disagrees(`payment intent ${intent.id}: ${wrong}`);
  if (intent.status === "succeeded") {
    const paid = intent.payments.find((payment) => payment.status === "paid" && payment.amount === record.amountMinor);
    return paid ? { kind: "settled", outcome: { status: "succeeded", providerPaymentId: paid.id, ...methodAndTime(paid) } } : open;
  }
  // The payer acted on the redirect page and PayMongo is completing the payment.
  if (intent.status === "processing") return record.status === "awaiting_next_action" ? { kind: "settled", outcome: { status: "processing" } } : open;
  if (intent.status !== "awaiting_payment_method") return open;
  if (intent.lastPaymentError) return { kind: "settled", outcome: { status: "failed" } };
  if (record.status === "awaiting_next_action" && !intent.payments.some((payment) => payment.status === "paid")) {
    return { kind: "settled", outcome: { status: "expired" } };
  }
  return open;
}

/**
 * A refund settles when PayMongo's refund carries Bayad's refund id in its metadata, refunds the
 * same amount of the same PayMongo payment, and is `succeeded` or `failed`.
 */
export function verifiedRefundOutcome(
  record: Pick<RefundRecord, "_id" | "amountMinor" | "currency" | "providerReference" | "providerPaymentId">,
  refund: PaymongoRefundState,
): Verdict<ProviderRefundOutcome> {
  const bayadId = refund.metadata[BAYAD_RESOURCE_ID];
  if (bayadId !== record._id) return disagrees(`refund ${refund.id}: metadata.${BAYAD_RESOURCE_ID} is ${bayadId ?? "absent"}`);
  if (record.providerReference !== undefined && refund.id !== record.providerReference) return disagrees(`refund ${refund.id} is not ${record.providerReference}`);
  if (refund.amount !== record.amountMinor) return disagrees(`refund ${refund.id}: amount ${refund.amount} is not ${record.amountMinor}`);
  // PayMongo's refund resource documents no currency ([O] refund-resource lists none): checked only when present.
  if (refund.currency !== undefined && refund.currency !== record.currency) return disagrees(`refund ${refund.id}: currency ${refund.currency} is not ${record.currency}`);
  if (record.providerPaymentId !== undefined && refund.paymentId !== record.providerPaymentId) {
    return disagrees(`refund ${refund.id}: payment ${refund.paymentId ?? "absent"} is not ${record.providerPaymentId}`);
  }
  return refund.status === "succeeded" || refund.status === "failed" ? { kind: "settled", outcome: { status: refund.status, providerReference: refund.id } } : open;
}
