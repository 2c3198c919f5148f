import type { Event } from "@bayad/proto";
import { invoiceToJson, planToJson, subscriptionToJson } from "./billing.js";
import { paymentLinkToJson } from "./links.js";
import { checkoutToJson, customerToJson, paymentIntentToJson, refundToJson } from "./payments.js";
import { providerAccountToJson } from "./provider-accounts.js";
import type { PublicUrl } from "./json.js";

/**
 * The public event types: what a webhook endpoint can subscribe to, what capabilities list and
 * what the OpenAPI document's `webhooks` describe. A public type is the internal event's type
 * without its service (`payments.checkout.paid` is `checkout.paid`): `<resource>.<what happened>`,
 * unless `renamed` below says otherwise. `payment_intent.requires_action`: the payer must act (an
 * e-wallet's or bank's page to redirect to, in `nextAction`, or a QR Ph code, `qrCodeImageUrl`);
 * `payment_intent.processing`: the provider is completing the payment.
 */
export const webhookEventTypes = [
  "checkout.paid",
  "checkout.failed",
  "checkout.cancelled",
  "checkout.expired",
  "payment_intent.requires_action",
  "payment_intent.processing",
  "payment_intent.succeeded",
  "payment_intent.failed",
  "payment_intent.cancelled",
  "payment_intent.expired",
  "refund.succeeded",
  "refund.failed",
  "payment_link.paid",
  "subscription.created",
  "subscription.trial_will_end",
  "subscription.cancelled",
  "subscription.unpaid",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.reminder_sent",
  "provider_account.paused",
  "provider_account.resumed",
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

/** Sent by a webhook endpoint's test action, to that endpoint alone, whatever it subscribes to. */
export const testEventType = "webhook.test";

const publicTypes: ReadonlySet<string> = new Set(webhookEventTypes);

/**
 * Internal types (service taken off) announced under another public name, or (null) not at all.
 * An intent waiting for its payer is stored `awaiting_next_action`, which the API reads as
 * `requires_action`, so its event is named as consumers see the intent. A card intent's creation,
 * internal `payment_intent.requires_action`, stays unannounced: it waits for the merchant's own
 * confirm, not for a payer, and the merchant who created it has nothing to learn from it.
 */
const renamed: ReadonlyMap<string, WebhookEventType | null> = new Map([
  ["payment_intent.awaiting_next_action", "payment_intent.requires_action"],
  ["payment_intent.requires_action", null],
]);

export function isWebhookEventType(type: string): type is WebhookEventType {
  return publicTypes.has(type);
}

/** What a consumer is told of one internal event: its public type and the resource as the API answers it. */
export interface PublicEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/**
 * The public event of an internal one, or null when consumers are not told of it (a checkout
 * opened, a plan made, an invoice drafted) or it carries no resource. The resource is rendered as
 * the API's GET answers it, its hosted-page URLs made absolute with `publicUrl`.
 */
export function publicEventOf(event: Event, publicUrl: PublicUrl): PublicEvent | null {
  const internal = event.type.slice(event.type.indexOf(".") + 1);
  const type = renamed.has(internal) ? renamed.get(internal) : internal;
  if (!type || !isWebhookEventType(type)) return null;
  const data = publicDataOf(event.snapshot, publicUrl);
  return data ? { type, data } : null;
}

function publicDataOf(snapshot: Event["snapshot"], publicUrl: PublicUrl): Record<string, unknown> | null {
  switch (snapshot.case) {
    case "customer":
      return customerToJson(snapshot.value);
    case "checkout":
      return checkoutToJson(snapshot.value, publicUrl);
    case "paymentIntent":
      return paymentIntentToJson(snapshot.value, publicUrl);
    case "refund":
      return refundToJson(snapshot.value);
    case "plan":
      return planToJson(snapshot.value);
    case "subscription":
      return subscriptionToJson(snapshot.value);
    case "invoice":
      return invoiceToJson(snapshot.value, publicUrl);
    case "paymentLink":
      return paymentLinkToJson(snapshot.value, publicUrl);
    case "providerAccount":
      return providerAccountToJson(snapshot.value);
    default:
      return null;
  }
}
