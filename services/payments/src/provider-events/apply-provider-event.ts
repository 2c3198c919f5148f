import {
  BAYAD_RESOURCE_ID,
  parsePaymongoEvent,
  refundsOf,
  refundStateOf,
  type PaymongoProvider,
  type PaymongoRefundState,
} from "@bayad/provider";
import {
  settleCheckoutFromProvider,
  settlePaymentIntentFromProvider,
  settleRefundFromProvider,
} from "../providers/settle-from-provider.js";
import type { ProviderEventRecord } from "./provider-events-repository.js";
import { applyXenditEvent } from "./apply-xendit-event.js";
import { readerOf, type AppliedAs, type ApplyDeps, type Read } from "./event-read-back.js";

export type { AppliedAs, ApplyDeps } from "./event-read-back.js";

type Attributes = Record<string, unknown>;

const isObject = (value: unknown): value is Attributes => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
/** A resource's attributes, whether it came as JSON:API ({id, type, attributes}) or flat. */
const attributesOf = (resource: unknown): Attributes => (isObject(resource) ? (isObject(resource.attributes) ? resource.attributes : resource) : {});
/** The Bayad id Bayad put in the metadata of what it made at the provider. */
const bayadIdOf = (attributes: Attributes): string | undefined => (isObject(attributes.metadata) ? text(attributes.metadata.bayad_resource_id) : undefined);
const idOf = (resource: unknown): string | undefined => (isObject(resource) ? text(resource.id) : undefined);


/**
 * Applies one stored PayMongo event. An event, even correctly signed, is only a hint of which
 * resource to look at (anyone holding the webhook secret can sign one): the resource is read back
 * from PayMongo with the account's key, and only what PayMongo's own resource says, checked
 * against Bayad's (its id in the metadata, amount, currency: verified-outcomes.ts), is applied —
 * the same reading the reconciler makes. "applied" when it moved (or found already moved) a
 * resource; "rejected" when PayMongo's resource does not confirm the event (nothing final there,
 * or not Bayad's resource or not its money: logged); "ignored" when it is about nothing this
 * service keeps (a type Bayad does not act on, another account's resource, a link: payment links
 * and invoices are other services' collections, which they settle by reading PayMongo themselves).
 * Throws when it could not apply yet (the applier tries again later): PayMongo out of reach, or
 * the account paused (its key refused).
 */
export async function applyProviderEvent(deps: ApplyDeps, record: ProviderEventRecord): Promise<AppliedAs> {
  if (record.provider === "xendit") return applyXenditEvent(deps, record);
  const event = parsePaymongoEvent(record.body);
  const accountId = record.providerAccountId;
  const data = attributesOf(event.data);
  const found = await deps.providers.paymongoOf(accountId);
  if (!found) return "ignored";
  const { account, provider } = found;
  const cause = `event ${record.eventId} (${event.type})`;
  const read = readerOf(deps, account, provider, record, event.type);

  switch (event.type) {
    case "checkout_session.payment.paid": {
      // The hint: Bayad's checkout named in the session's metadata. Its session is read by the id Bayad recorded, not the event's.
      const checkoutId = bayadIdOf(data);
      const checkout = checkoutId ? await deps.checkouts.repository.findByIdForPage(checkoutId) : null;
      if (!checkout || checkout.providerAccountId !== accountId) return "ignored";
      return read(checkout._id, (p) => settleCheckoutFromProvider(deps, p, checkout, cause));
    }
    case "payment.paid":
    case "payment.failed":
    case "qrph.expired": {
      // A payment and a qrph code both name their intent. A checkout session's intent is no Bayad
      // intent: ignored here, the session's own event (or the reconciler) settles the checkout.
      const intentId = text(data.payment_intent_id);
      const intent = intentId ? await deps.paymentIntents.repository.findByProviderReference(intentId) : null;
      if (!intent || intent.providerAccountId !== accountId) return "ignored";
      return read(intent._id, (p) => settlePaymentIntentFromProvider(deps, p, intent, cause));
    }
    case "payment.refund.updated":
      // A Refund ([O] current docs); the older table said a Payment, which carries its refunds: either is read.
      return refunds(deps, accountId, event.data.type === "payment" ? refundsOf(data) : [refundStateOf(event.data)], read, cause);
    case "payment.refunded":
      // The payment, with its refunds: each is read back as its own update would be.
      return refunds(deps, accountId, refundsOf(data), read, cause);
    case "link.payment.paid":
      // A payment link's or an invoice's PayMongo link: the links and billing services own those
      // and this service cannot move them; their own provider reconcilers read the link at
      // PayMongo (every PROVIDER_RECONCILE_INTERVAL, once PROVIDER_RECONCILE_AFTER old) and settle it.
      deps.logger.info(
        { providerAccountId: accountId, eventId: record.eventId, type: event.type, linkId: idOf(event.data) },
        "link paid at the provider: the links or billing service settles it by its own reconciliation",
      );
      return "ignored";
    default:
      deps.logger.info({ providerAccountId: accountId, eventId: record.eventId, type: event.type }, "provider event of a type Bayad does not act on");
      return "ignored";
  }
}

async function refunds(deps: ApplyDeps, accountId: string, hinted: PaymongoRefundState[], read: Read<PaymongoProvider>, cause: string): Promise<AppliedAs> {
  const results: AppliedAs[] = [];
  for (const item of hinted) results.push(await refund(deps, accountId, item, read, cause));
  return results.includes("applied") ? "applied" : results.includes("rejected") ? "rejected" : "ignored";
}

/** The hint: Bayad's refund named in the refund's metadata, and PayMongo's refund id (read when Bayad has not recorded one yet). */
async function refund(deps: ApplyDeps, accountId: string, hinted: PaymongoRefundState, read: Read<PaymongoProvider>, cause: string): Promise<AppliedAs> {
  const refundId = hinted.metadata[BAYAD_RESOURCE_ID];
  const record = refundId ? await deps.refunds.repository.findByIdForProvider(refundId) : null;
  if (!record || record.providerAccountId !== accountId || record.status !== "pending") return "ignored";
  return read(record._id, (p) => settleRefundFromProvider(deps, p, record, cause, hinted.id));
}
