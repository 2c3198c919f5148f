import { AppError } from "@bayad/kit";
import { asResource, type PaymongoResource } from "./paymongo-resources.js";

/**
 * The events Bayad registers its webhook for, all [O]. `qrph.expired` is the newest of them
 * (docs/creating-webhook; older event tables lack it): should an account refuse it at
 * registration, the account setup registers the others (see registerWebhook).
 */
export const PAYMONGO_WEBHOOK_EVENTS: readonly string[] = Object.freeze([
  "checkout_session.payment.paid",
  "payment.paid",
  "payment.failed",
  "payment.refunded",
  "payment.refund.updated",
  "link.payment.paid",
  "qrph.expired",
]);

/** The events of PAYMONGO_WEBHOOK_EVENTS that every version of PayMongo's event table lists. */
export const PAYMONGO_DOCUMENTED_WEBHOOK_EVENTS: readonly string[] = Object.freeze(PAYMONGO_WEBHOOK_EVENTS.filter((type) => type !== "qrph.expired"));

export interface PaymongoEvent {
  /** `evt_…`: what deliveries are deduplicated by. */
  id: string;
  /** `payment.paid`, `checkout_session.payment.paid`…. */
  type: string;
  livemode: boolean;
  /** The resource the event is about, {id, type, attributes} (flat resources read the same way). */
  data: PaymongoResource;
  createdAt: Date;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function notAnEvent(detail: string): AppError {
  return new AppError("VALIDATION_FAILED", "The body is not a PayMongo event.", { details: [detail] });
}

/**
 * Parses a webhook body, `{"data":{"id":"evt_…","type":"event","attributes":{"type","livemode",
 * "data":<resource>,"created_at",…}}}` [O]. The envelope's `created_at` is unix seconds; the
 * resource's own times are not read here (`qrph.expired`'s is an ISO string [O]). Throws
 * VALIDATION_FAILED naming the first field that is missing or of the wrong kind. Call it after
 * the signature is verified, on the same raw body.
 */
export function parsePaymongoEvent(rawBody: string): PaymongoEvent {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw notAnEvent("body: not JSON");
  }
  const event = isObject(body) ? body.data : undefined;
  if (!isObject(event)) throw notAnEvent("data: missing");
  if (typeof event.id !== "string" || event.id === "") throw notAnEvent("data.id: missing");
  const attributes = event.attributes;
  if (!isObject(attributes)) throw notAnEvent("data.attributes: missing");
  if (typeof attributes.type !== "string" || attributes.type === "") throw notAnEvent("data.attributes.type: missing");
  if (typeof attributes.livemode !== "boolean") throw notAnEvent("data.attributes.livemode: not a boolean");
  const resource = asResource(attributes.data);
  if (!resource) throw notAnEvent("data.attributes.data: not a resource with an id");
  const createdAt = attributes.created_at;
  if (typeof createdAt !== "number" || !Number.isFinite(createdAt)) throw notAnEvent("data.attributes.created_at: not a unix time");
  return { id: event.id, type: attributes.type, livemode: attributes.livemode, data: resource, createdAt: new Date(createdAt * 1000) };
}
