import { AppError } from "@bayad/kit";

/** What a Xendit callback can be about, as Bayad reads it back. */
export type XenditResource = "payment" | "payment_request" | "payment_session" | "refund" | "invoice" | "payment_token";

/** The resource a callback names, to be read back with the account's key before anything changes. */
export interface XenditEventSubject {
  resource: XenditResource;
  /** The resource's id (`py-…`, `pr-…`, `ps-…`, `rfd-…`, `pt-…`, an invoice's 24 hex digits), checked to be one. */
  id: string;
  /** Ids the body names beside it, for finding Bayad's record; as untrusted as the rest of the body. */
  paymentRequestId?: string;
  paymentId?: string;
  /** Bayad's own reference (`reference_id`; an invoice's `external_id`). */
  referenceId?: string;
}

/**
 * A callback read as a hint: which resource to read back, never what happened to it. Amounts
 * and statuses in the body are not read (anyone holding the static token can write them);
 * only the resource Xendit answers with, read with the account's key, may move Bayad's state.
 */
export interface XenditEventHint {
  /** The v3 event (`payment.capture`…), or `invoice` for an invoice's flat callback. */
  event: string;
  /** Absent for an event Bayad does not read: it is acknowledged and left alone. */
  subject?: XenditEventSubject;
  /** The envelope's `business_id` (an invoice's `user_id`), when given. */
  businessId?: string;
  /**
   * What deliveries of one callback share (Xendit retries and duplicates them and sends no event
   * id [O]): the event and the subject's id, plus, for an invoice, the status it claims, so its
   * paid and expired callbacks stay two.
   */
  deliveryKey: string;
}

const PREFIXED = (prefix: string) => new RegExp(`^${prefix}-[A-Za-z0-9_-]{1,100}$`);
const ID_PATTERNS: Readonly<Record<XenditResource, RegExp>> = {
  payment: PREFIXED("py"),
  payment_request: PREFIXED("pr"),
  payment_session: PREFIXED("ps"),
  refund: PREFIXED("rfd"),
  payment_token: PREFIXED("pt"),
  invoice: /^[0-9a-f]{24}$/i,
};

interface EventShape {
  resource: XenditResource;
  /** The field of `data` holding the resource's id. */
  idField: string;
}

const shaped = (resource: XenditResource, idField: string, ...events: string[]) => events.map((event): [string, EventShape] => [event, { resource, idField }]);

/** The v3 events [O xendit.md §6], each with the resource its `data` is. */
const EVENTS: ReadonlyMap<string, EventShape> = new Map([
  ...shaped("payment", "payment_id", "payment.capture", "payment.succeeded", "payment.authorization", "payment.failure", "payment.expiry"),
  ...shaped("payment_request", "payment_request_id", "payment_request.expiry"),
  ...shaped("payment_token", "payment_token_id", "payment_token.activation", "payment_token.failure", "payment_token.expiry"),
  ...shaped("refund", "id", "refund.succeeded", "refund.failed"),
  ...shaped("payment_session", "payment_session_id", "payment_session.completed", "payment_session.expired"),
]);

/** The v3 events Bayad reads (`payment.succeeded`, named by the session-migration guide, beside `payment.capture`). */
export const XENDIT_EVENTS: readonly string[] = Object.freeze([...EVENTS.keys()]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const textAt = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key];
  return typeof value === "string" && value !== "" ? value : undefined;
};

function notACallback(detail: string): AppError {
  return new AppError("VALIDATION_FAILED", "The body is not a Xendit callback.", { details: [detail] });
}

function subjectOf(resource: XenditResource, data: Record<string, unknown>, idField: string, where: string): XenditEventSubject {
  const id = textAt(data, idField);
  if (id === undefined) throw notACallback(`${where}.${idField}: missing`);
  if (!ID_PATTERNS[resource].test(id)) throw notACallback(`${where}.${idField}: not ${/^[aeiou]/.test(resource) ? "an" : "a"} ${resource} id`);
  const paymentRequestId = resource === "payment_request" ? undefined : textAt(data, "payment_request_id");
  const paymentId = resource === "payment" ? undefined : textAt(data, "payment_id");
  const referenceId = textAt(data, resource === "invoice" ? "external_id" : "reference_id");
  return {
    resource,
    id,
    ...(paymentRequestId !== undefined ? { paymentRequestId } : {}),
    ...(paymentId !== undefined ? { paymentId } : {}),
    ...(referenceId !== undefined ? { referenceId } : {}),
  };
}

/** An invoice's callback: the invoice itself, flat, with no `event` [O xendit-node InvoiceCallback]. */
function invoiceHint(body: Record<string, unknown>): XenditEventHint {
  const subject = subjectOf("invoice", body, "id", "body");
  const businessId = textAt(body, "user_id");
  // The claimed status only tells two deliveries apart; it is never read as what happened.
  const claimed = textAt(body, "status") ?? "";
  return { event: "invoice", subject, ...(businessId !== undefined ? { businessId } : {}), deliveryKey: `invoice:${subject.id}:${claimed}` };
}

/**
 * Parses a Xendit callback body (after its token was verified) into a hint. A v3 envelope
 * `{event, business_id, created, data}` [O] names its resource in `data`, which the refund
 * example nests once more as `data.data` (doc bug [O]): both are read. A body without `event`
 * but with an invoice's `id` and `external_id` is an invoice's flat callback. An event Bayad
 * does not read gives a hint without subject. Throws VALIDATION_FAILED naming the first field
 * that is missing or not what it should be; an id is checked against its resource's form, as it
 * goes into the path that reads the resource back.
 */
export function parseXenditEvent(rawBody: string): XenditEventHint {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw notACallback("body: not JSON");
  }
  if (!isObject(body)) throw notACallback("body: not an object");
  if (body.event === undefined && body.external_id !== undefined) return invoiceHint(body);
  const event = textAt(body, "event");
  if (event === undefined) throw notACallback("event: missing");
  if (!isObject(body.data)) throw notACallback("data: missing");
  const businessId = textAt(body, "business_id");
  const base = { event, ...(businessId !== undefined ? { businessId } : {}) };
  const known = EVENTS.get(event);
  if (!known) return { ...base, deliveryKey: `${event}:` };
  const nested = body.data.data;
  const [data, where] =
    known.resource === "refund" && textAt(body.data, known.idField) === undefined && isObject(nested) ? [nested, "data.data"] : [body.data, "data"];
  const subject = subjectOf(known.resource, data, known.idField, where);
  return { ...base, subject, deliveryKey: `${event}:${subject.id}` };
}
