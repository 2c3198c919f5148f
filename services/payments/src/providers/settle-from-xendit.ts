import type { XenditProvider } from "@bayad/provider";
import type { CheckoutRecord } from "../checkouts/checkout.js";
import { applyProviderCheckoutOutcome } from "../checkouts/checkouts.js";
import type { PaymentIntentRecord } from "../payment-intents/payment-intent.js";
import { applyProviderPaymentIntentOutcome } from "../payment-intents/payment-intents.js";
import type { RefundRecord } from "../refunds/refund.js";
import { applyProviderRefundOutcome } from "../refunds/refunds.js";
import { settle, type SettleCause, type SettleDeps, type Settled } from "./settle-from-provider.js";
import { verifiedXenditCheckoutOutcome, verifiedXenditPaymentIntentOutcome, verifiedXenditRefundOutcome } from "./verified-xendit-outcomes.js";

/**
 * Xendit's side of settle-from-provider.ts: each reads Xendit's resource by the id Bayad recorded
 * on its own resource (never a callback's), judges it (verified-xendit-outcomes.ts) and applies a
 * settled verdict through the same functions as PayMongo's.
 */

/** Reads the checkout's Payment Session (and, once COMPLETED, its payment request) and applies what they verifiably say. */
export async function settleXenditCheckout(deps: SettleDeps, provider: XenditProvider, record: CheckoutRecord, cause: SettleCause): Promise<Settled> {
  const providerAccountId = record.providerAccountId;
  if (providerAccountId === undefined || record.providerReference === undefined) return "unknown";
  const session = await provider.retrieveSessionById(record.providerReference);
  const request =
    session.state === "completed" && session.paymentRequestId !== undefined ? await provider.retrievePaymentRequestById(session.paymentRequestId) : undefined;
  return settle(deps, { kind: "checkout", id: record._id, providerAccountId, cause }, verifiedXenditCheckoutOutcome(record, session, request), (outcome) =>
    applyProviderCheckoutOutcome(deps.checkouts, providerAccountId, record._id, outcome),
  );
}

/** Reads the intent's payment request and applies what it verifiably says. */
export async function settleXenditPaymentIntent(deps: SettleDeps, provider: XenditProvider, record: PaymentIntentRecord, cause: SettleCause): Promise<Settled> {
  const { providerAccountId, providerReference } = record;
  if (providerAccountId === undefined || providerReference === undefined) return "unknown";
  const request = await provider.retrievePaymentRequestById(providerReference);
  return settle(deps, { kind: "payment_intent", id: record._id, providerAccountId, cause }, verifiedXenditPaymentIntentOutcome(record, request), (outcome) =>
    applyProviderPaymentIntentOutcome(deps.paymentIntents, providerAccountId, providerReference, outcome),
  );
}

/**
 * Reads the refund at Xendit and applies what it verifiably says. `providerRefundId` (a
 * callback's hint) is read only while Bayad has not recorded Xendit's id; the refund read back
 * must then carry Bayad's refund id as its reference to count.
 */
export async function settleXenditRefund(
  deps: SettleDeps,
  provider: XenditProvider,
  record: RefundRecord,
  cause: SettleCause,
  providerRefundId?: string,
): Promise<Settled> {
  const providerAccountId = record.providerAccountId;
  const id = record.providerReference ?? providerRefundId;
  if (providerAccountId === undefined || id === undefined) return "unknown";
  const refund = await provider.retrieveRefundById(id);
  return settle(deps, { kind: "refund", id: record._id, providerAccountId, cause }, verifiedXenditRefundOutcome(record, refund), (outcome) =>
    applyProviderRefundOutcome(deps.refunds, providerAccountId, record._id, outcome),
  );
}
