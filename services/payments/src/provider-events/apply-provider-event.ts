import type { Logger } from "@bayad/kit";
import { parsePaymongoEvent, paymongoPaymentOf } from "@bayad/provider";
import { applyProviderCheckoutOutcome, type CheckoutsDeps } from "../checkouts/checkouts.js";
import { applyProviderPaymentIntentOutcome, type PaymentIntentsDeps } from "../payment-intents/payment-intents.js";
import { applyProviderRefundOutcome, type RefundsDeps } from "../refunds/refunds.js";
import type { ProviderEventRecord } from "./provider-events-repository.js";

export interface ApplyDeps {
  checkouts: CheckoutsDeps;
  paymentIntents: PaymentIntentsDeps;
  refunds: RefundsDeps;
  logger: Logger;
}

type Attributes = Record<string, unknown>;

const isObject = (value: unknown): value is Attributes => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
/** A resource's attributes, whether it came as JSON:API ({id, type, attributes}) or flat. */
const attributesOf = (resource: unknown): Attributes => (isObject(resource) ? (isObject(resource.attributes) ? resource.attributes : resource) : {});
/** The Bayad id Bayad put in the metadata of what it made at the provider. */
const bayadIdOf = (attributes: Attributes): string | undefined => (isObject(attributes.metadata) ? text(attributes.metadata.bayad_resource_id) : undefined);
const idOf = (resource: unknown): string | undefined => (isObject(resource) ? text(resource.id) : undefined);

/**
 * Applies one stored PayMongo event to the Bayad resource it is about. "applied" when it moved
 * (or found already moved) a resource; "ignored" when it is about nothing this service keeps (a
 * type Bayad does not act on, another account's resource, a link: payment links and invoices are
 * other services' collections, which they settle by reading PayMongo themselves). Throws when it could not apply yet (the applier tries again later).
 */
export async function applyProviderEvent(deps: ApplyDeps, record: ProviderEventRecord): Promise<"applied" | "ignored"> {
  const event = parsePaymongoEvent(record.body);
  const account = record.providerAccountId;
  const data = attributesOf(event.data);
  const moved = (result: unknown) => (result === undefined ? "ignored" : "applied");
  switch (event.type) {
    case "checkout_session.payment.paid": {
      const checkoutId = bayadIdOf(data);
      const payments: unknown[] = Array.isArray(data.payments) ? data.payments : [];
      const paid = payments.find((payment) => attributesOf(payment).status === "paid") ?? payments[0];
      const providerPaymentId = idOf(paid);
      if (!checkoutId || !providerPaymentId) return "ignored";
      const payment = paymongoPaymentOf(paid);
      return moved(await applyProviderCheckoutOutcome(deps.checkouts, account, checkoutId, { status: "paid", providerPaymentId, method: payment?.method, paidAt: payment?.paidAt }));
    }
    case "payment.paid":
    case "payment.failed": {
      const intent = text(data.payment_intent_id);
      const paymentId = idOf(event.data);
      if (!intent || !paymentId) return "ignored";
      const payment = paymongoPaymentOf(event.data);
      const outcome =
        event.type === "payment.paid"
          ? { status: "succeeded" as const, providerPaymentId: paymentId, method: payment?.method, paidAt: payment?.paidAt }
          : { status: "failed" as const };
      // A checkout session's payment names the session's own intent, which no Bayad intent has: ignored here, the session's event applies it.
      return moved(await applyProviderPaymentIntentOutcome(deps.paymentIntents, account, intent, outcome));
    }
    case "qrph.expired": {
      const intent = text(data.payment_intent_id);
      if (!intent) return "ignored";
      return moved(await applyProviderPaymentIntentOutcome(deps.paymentIntents, account, intent, { status: "expired" }));
    }
    case "payment.refund.updated":
      return applyRefund(deps, account, event.data);
    case "payment.refunded": {
      // The payment, with its refunds when PayMongo includes them ([3P]); each is applied as its own update would be.
      const refunds = Array.isArray(data.refunds) ? data.refunds : [];
      let result: "applied" | "ignored" = "ignored";
      for (const refund of refunds) if ((await applyRefund(deps, account, refund)) === "applied") result = "applied";
      return result;
    }
    case "link.payment.paid":
      // A payment link's or an invoice's PayMongo link: the links and billing services own those
      // and this service cannot move them; their own provider reconcilers read the link at
      // PayMongo (every PROVIDER_RECONCILE_INTERVAL, once PROVIDER_RECONCILE_AFTER old) and settle it.
      deps.logger.info(
        { providerAccountId: account, eventId: record.eventId, type: event.type, linkId: idOf(event.data) },
        "link paid at the provider: the links or billing service settles it by its own reconciliation",
      );
      return "ignored";
    default:
      deps.logger.info({ providerAccountId: account, eventId: record.eventId, type: event.type }, "provider event of a type Bayad does not act on");
      return "ignored";
  }
}

async function applyRefund(deps: ApplyDeps, account: string, refund: unknown): Promise<"applied" | "ignored"> {
  const attributes = attributesOf(refund);
  const refundId = bayadIdOf(attributes);
  const providerReference = idOf(refund);
  const status = attributes.status;
  if (!refundId || !providerReference || (status !== "succeeded" && status !== "failed")) return "ignored";
  const result = await applyProviderRefundOutcome(deps.refunds, account, refundId, { status, providerReference });
  return result === undefined ? "ignored" : "applied";
}
