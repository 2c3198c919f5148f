import type { Logger } from "@bayad/kit";
import type { PaymongoProvider } from "@bayad/provider";
import type { CheckoutRecord } from "../checkouts/checkout.js";
import { applyProviderCheckoutOutcome, type CheckoutsDeps } from "../checkouts/checkouts.js";
import type { PaymentIntentRecord } from "../payment-intents/payment-intent.js";
import { applyProviderPaymentIntentOutcome, type PaymentIntentsDeps } from "../payment-intents/payment-intents.js";
import type { RefundRecord } from "../refunds/refund.js";
import { applyProviderRefundOutcome, type RefundsDeps } from "../refunds/refunds.js";
import { verifiedCheckoutOutcome, verifiedPaymentIntentOutcome, verifiedRefundOutcome, type Verdict } from "./verified-outcomes.js";

export interface SettleDeps {
  checkouts: CheckoutsDeps;
  paymentIntents: PaymentIntentsDeps;
  refunds: RefundsDeps;
  logger: Logger;
}

/**
 * What reading one resource back did: `applied` (the Bayad resource now says what PayMongo
 * says, or already did), `open` (PayMongo shows nothing final), `disagrees` (PayMongo's resource
 * is not Bayad's or not for the same money: nothing changed, logged), `unknown` (no such resource
 * of this account here).
 */
export type Settled = "applied" | "open" | "disagrees" | "unknown";

/** Why a provider read is being made, for the log of a disagreement (`event evt_…` or `reconciliation`). */
export type SettleCause = string;

/**
 * The provider-neutral part of settling: a verdict (PayMongo's, verified-outcomes.ts, or
 * Xendit's, verified-xendit-outcomes.ts) applied through the resource's own function, a
 * disagreement logged and nothing changed.
 */
export async function settle<O>(
  deps: SettleDeps,
  what: { kind: string; id: string; providerAccountId: string; cause: SettleCause },
  verdict: Verdict<O>,
  apply: (outcome: O) => Promise<unknown>,
): Promise<Settled> {
  if (verdict.kind === "open") return "open";
  if (verdict.kind === "disagrees") {
    // Ids, amounts and the reason only: never the provider's body (it may hold a payer's details) nor a key.
    deps.logger.warn(
      { providerAccountId: what.providerAccountId, kind: what.kind, resourceId: what.id, cause: what.cause, reason: verdict.reason },
      "provider resource disagrees with Bayad's: nothing changed",
    );
    return "disagrees";
  }
  return (await apply(verdict.outcome)) === undefined ? "unknown" : "applied";
}

/** Reads the checkout's session at PayMongo and applies what it verifiably says. */
export async function settleCheckoutFromProvider(deps: SettleDeps, provider: PaymongoProvider, record: CheckoutRecord, cause: SettleCause): Promise<Settled> {
  const providerAccountId = record.providerAccountId;
  if (providerAccountId === undefined || record.providerReference === undefined) return "unknown";
  const session = await provider.retrieveCheckoutSessionById(record.providerReference);
  return settle(deps, { kind: "checkout", id: record._id, providerAccountId, cause }, verifiedCheckoutOutcome(record, session), (outcome) =>
    applyProviderCheckoutOutcome(deps.checkouts, providerAccountId, record._id, outcome),
  );
}

/** Reads the intent at PayMongo and applies what it verifiably says. */
export async function settlePaymentIntentFromProvider(
  deps: SettleDeps,
  provider: PaymongoProvider,
  record: PaymentIntentRecord,
  cause: SettleCause,
): Promise<Settled> {
  const { providerAccountId, providerReference } = record;
  if (providerAccountId === undefined || providerReference === undefined) return "unknown";
  const intent = await provider.retrievePaymentIntentById(providerReference);
  return settle(deps, { kind: "payment_intent", id: record._id, providerAccountId, cause }, verifiedPaymentIntentOutcome(record, intent), (outcome) =>
    applyProviderPaymentIntentOutcome(deps.paymentIntents, providerAccountId, providerReference, outcome),
  );
}

/**
 * Reads the refund at PayMongo and applies what it verifiably says. `providerRefundId` names the
 * refund to read when Bayad has not recorded PayMongo's id yet (an event's hint; it must then carry
 * Bayad's refund id in its metadata to count).
 */
export async function settleRefundFromProvider(
  deps: SettleDeps,
  provider: PaymongoProvider,
  record: RefundRecord,
  cause: SettleCause,
  providerRefundId?: string,
): Promise<Settled> {
  const providerAccountId = record.providerAccountId;
  const id = record.providerReference ?? providerRefundId;
  if (providerAccountId === undefined || id === undefined) return "unknown";
  const refund = await provider.retrieveRefundById(id);
  return settle(deps, { kind: "refund", id: record._id, providerAccountId, cause }, verifiedRefundOutcome(record, refund), (outcome) =>
    applyProviderRefundOutcome(deps.refunds, providerAccountId, record._id, outcome),
  );
}
