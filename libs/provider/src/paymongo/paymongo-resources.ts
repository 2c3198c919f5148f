import { ProviderNoAnswerError } from "../port.js";
import type { PaymentMethodName } from "../payment-methods.js";
import type { PaymongoDocument } from "./paymongo-http.js";
import { paymongoFeeOf, paymongoPaymentMethodOf } from "./paymongo-payment-facts.js";

/**
 * Readers of PayMongo's resources. They read defensively: a field the docs mark unconfirmed may
 * be missing or shaped otherwise, and a flat resource (`/v1/payment_links`) reads like a JSON:API
 * one ({id, type, attributes}).
 */

export interface PaymongoResource {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
}

export interface PaymongoPaymentState {
  id: string;
  status: "pending" | "paid" | "failed";
  amount: number;
  /** `PHP` (USD only for USD card acceptance); absent when PayMongo leaves it out. */
  currency?: string;
  paymentIntentId?: string;
  /** The payer's method (`gcash`, `qrph`, `card`…), from the payment's source. */
  method?: string;
  /** That method in Bayad's names (`paymaya` → `maya`…); absent when it has none. */
  paymentMethod?: PaymentMethodName;
  /** What PayMongo kept, tax on the fee included (paymongo-payment-facts.ts); absent when not reported. */
  fee?: number;
  paidAt?: Date;
  /** Why it failed, as PayMongo codes it (QR Ph: `RJCT`). */
  failedCode?: string;
}

export interface PaymongoCheckoutSessionState {
  id: string;
  /**
   * `active` | `expired` ([3P]), passed through as PayMongo says it. A paid session still reads
   * `active` [O]: whether it was paid is read from `payments`, never from this.
   */
  status: string;
  payments: PaymongoPaymentState[];
  /** The string values of the session's metadata (Bayad's `bayad_resource_id` among them). */
  metadata: Record<string, string>;
}

export interface PaymongoPaymentIntentState {
  id: string;
  /** `awaiting_payment_method` | `awaiting_next_action` | `processing` | `succeeded` (and [3P] `cancelled`). */
  status: string;
  /** In centavos; 0 when PayMongo leaves it out. */
  amount: number;
  currency?: string;
  payments: PaymongoPaymentState[];
  metadata: Record<string, string>;
  lastPaymentError?: { code?: string; message?: string };
  /** Where the payer goes next, while the intent awaits them (`awaiting_next_action`). */
  nextAction?: PaymongoNextAction;
}

/**
 * An intent's `next_action`: a redirect to the e-wallet's or bank's page
 * (`{type:"redirect",redirect:{url,return_url}}` [O]) or a QR Ph code (`code.image_url` [O]).
 */
export type PaymongoNextAction = { type: "redirect"; url: string; returnUrl?: string } | { type: "qr"; imageUrl: string };

export interface PaymongoRefundState {
  id: string;
  /** `pending` | `processing` | `succeeded` | `failed`. */
  status: string;
  amount: number;
  currency?: string;
  metadata: Record<string, string>;
  paymentId?: string;
}

export interface PaymongoLinkState {
  id: string;
  /** Legacy links: `unpaid` | `paid` | `refunded`; payment links: `active`…. */
  status: string;
  referenceNumber: string;
  checkoutUrl: string;
  payments: PaymongoPaymentState[];
  /** In centavos, and its currency: absent when PayMongo leaves them out. */
  amount?: number;
  /** The link's own `fee` plus its `taxes[]` [O /v1/links], when reported. */
  fee?: number;
  currency?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export const textAt = (record: Record<string, unknown>, key: string): string | undefined => {
  const value = record[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
};

const numberAt = (record: Record<string, unknown>, key: string): number | undefined => {
  const value = record[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
};

/** A raw resource as {id, type, attributes}: JSON:API as it is, a flat object as its own attributes. */
export function asResource(raw: unknown): PaymongoResource | undefined {
  if (!isObject(raw) || typeof raw.id !== "string" || raw.id === "") return undefined;
  const attributes = isObject(raw.attributes) ? raw.attributes : raw;
  return { id: raw.id, type: typeof raw.type === "string" ? raw.type : "", attributes };
}

/**
 * The resource a call answered with. PayMongo answered 200, so a create did happen: an answer
 * without an id leaves its outcome as unknown as no answer at all.
 */
export function resourceOf(document: PaymongoDocument, operation: string): PaymongoResource {
  const resource = asResource(document.data);
  if (!resource) throw new ProviderNoAnswerError(operation);
  return resource;
}

/** The resources of a list answer (`{data: [...]}`). */
export function resourcesOf(document: PaymongoDocument): PaymongoResource[] {
  return Array.isArray(document.data) ? document.data.flatMap((raw) => asResource(raw) ?? []) : [];
}

function paymentStatusOf(value: string | undefined): PaymongoPaymentState["status"] {
  if (value === "paid" || value === "failed") return value;
  // A refunded payment was paid first; its refunds are read on their own.
  if (value !== undefined && value.includes("refund")) return "paid";
  return "pending";
}

const dateOfUnixSeconds = (seconds: number | undefined) => (seconds === undefined ? undefined : new Date(seconds * 1000));

export function paymentStateOf(raw: unknown): PaymongoPaymentState | undefined {
  const resource = asResource(raw);
  if (!resource) return undefined;
  const attributes = resource.attributes;
  const source = isObject(attributes.source) ? attributes.source : {};
  const method = textAt(source, "type") ?? textAt(attributes, "payment_method_type");
  const paymentIntentId = textAt(attributes, "payment_intent_id");
  const paidAt = dateOfUnixSeconds(numberAt(attributes, "paid_at"));
  const failedCode = textAt(attributes, "failed_code");
  const currency = textAt(attributes, "currency");
  const paymentMethod = paymongoPaymentMethodOf(method);
  const fee = paymongoFeeOf(attributes);
  return {
    id: resource.id,
    status: paymentStatusOf(textAt(attributes, "status")),
    amount: numberAt(attributes, "amount") ?? 0,
    ...(currency !== undefined ? { currency } : {}),
    ...(paymentIntentId !== undefined ? { paymentIntentId } : {}),
    ...(method !== undefined ? { method } : {}),
    ...(paymentMethod !== undefined ? { paymentMethod } : {}),
    ...(fee !== undefined ? { fee } : {}),
    ...(paidAt !== undefined ? { paidAt } : {}),
    ...(failedCode !== undefined ? { failedCode } : {}),
  };
}

/**
 * A resource's `payments[]`. Entries come flat ({id, type, attributes}: checkout sessions,
 * payment intents) or wrapped in `data` (`/v1/links` and `link.payment.paid` [O]; paymongo-node
 * reads links' entries unwrapped): both are read.
 */
export const paymentsOf = (attributes: Record<string, unknown>): PaymongoPaymentState[] =>
  Array.isArray(attributes.payments) ? attributes.payments.flatMap((raw: unknown) => paymentStateOf(unwrapped(raw)) ?? []) : [];

/** An entry `{"data": <resource>}` as its resource; anything else as it is. */
const unwrapped = (raw: unknown): unknown => (isObject(raw) && isObject(raw.data) && raw.id === undefined ? raw.data : raw);

/** The string values of a resource's `metadata` (PayMongo keeps metadata values as strings [3P]). */
export function metadataOf(attributes: Record<string, unknown>): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (isObject(attributes.metadata)) {
    for (const [key, value] of Object.entries(attributes.metadata)) if (typeof value === "string") metadata[key] = value;
  }
  return metadata;
}

export function checkoutSessionStateOf(resource: PaymongoResource): PaymongoCheckoutSessionState {
  const attributes = resource.attributes;
  return { id: resource.id, status: textAt(attributes, "status") ?? "active", payments: paymentsOf(attributes), metadata: metadataOf(attributes) };
}

/** A resource's `next_action`, when it names a redirect URL or a QR image; other spellings seen in third-party code are read as well. */
export function nextActionOf(attributes: Record<string, unknown>): PaymongoNextAction | undefined {
  const nextAction = objectAt(attributes, "next_action");
  if (!nextAction) return undefined;
  const redirect = objectAt(nextAction, "redirect");
  const url = redirect && textAt(redirect, "url");
  if (url !== undefined) {
    const returnUrl = textAt(redirect!, "return_url");
    return { type: "redirect", url, ...(returnUrl !== undefined ? { returnUrl } : {}) };
  }
  const imageUrl = textAt(objectAt(nextAction, "code") ?? {}, "image_url") ?? textAt(objectAt(nextAction, "qr_code") ?? {}, "image_url") ?? textAt(nextAction, "image_url");
  return imageUrl !== undefined ? { type: "qr", imageUrl } : undefined;
}

export function paymentIntentStateOf(resource: PaymongoResource): PaymongoPaymentIntentState {
  const attributes = resource.attributes;
  const error = isObject(attributes.last_payment_error) ? attributes.last_payment_error : undefined;
  // PayMongo's own shape is {failed_code, failed_message}; code/detail are read as well.
  const code = error && (textAt(error, "failed_code") ?? textAt(error, "code"));
  const message = error && (textAt(error, "failed_message") ?? textAt(error, "detail") ?? textAt(error, "message"));
  const currency = textAt(attributes, "currency");
  const nextAction = nextActionOf(attributes);
  return {
    id: resource.id,
    status: textAt(attributes, "status") ?? "awaiting_payment_method",
    amount: numberAt(attributes, "amount") ?? 0,
    ...(currency !== undefined ? { currency } : {}),
    payments: paymentsOf(attributes),
    metadata: metadataOf(attributes),
    ...(error ? { lastPaymentError: { ...(code ? { code } : {}), ...(message ? { message } : {}) } } : {}),
    ...(nextAction ? { nextAction } : {}),
  };
}

export function refundStateOf(resource: PaymongoResource): PaymongoRefundState {
  const attributes = resource.attributes;
  const paymentId = textAt(attributes, "payment_id");
  const currency = textAt(attributes, "currency");
  return {
    id: resource.id,
    status: textAt(attributes, "status") ?? "pending",
    amount: numberAt(attributes, "amount") ?? 0,
    ...(currency !== undefined ? { currency } : {}),
    metadata: metadataOf(attributes),
    ...(paymentId !== undefined ? { paymentId } : {}),
  };
}

/**
 * The refunds a Payment carries in `refunds[]` (`payment.refunded` [O]), flat or wrapped in
 * `data` (the entries' shape is UNCONF: both are read, as for payments).
 */
export const refundsOf = (attributes: Record<string, unknown>): PaymongoRefundState[] =>
  Array.isArray(attributes.refunds)
    ? attributes.refunds.flatMap((raw: unknown) => {
        const resource = asResource(unwrapped(raw));
        return resource ? [refundStateOf(resource)] : [];
      })
    : [];

/** A link: legacy `/v1/links` (checkout_url) or flat `/v1/payment_links` (url). */
export function linkStateOf(resource: PaymongoResource): PaymongoLinkState {
  const attributes = resource.attributes;
  const amount = numberAt(attributes, "amount");
  const currency = textAt(attributes, "currency");
  const fee = paymongoFeeOf(attributes);
  return {
    id: resource.id,
    status: textAt(attributes, "status") ?? "unpaid",
    referenceNumber: textAt(attributes, "reference_number") ?? "",
    checkoutUrl: textAt(attributes, "checkout_url") ?? textAt(attributes, "url") ?? "",
    payments: paymentsOf(attributes),
    ...(amount !== undefined ? { amount } : {}),
    ...(currency !== undefined ? { currency } : {}),
    ...(fee !== undefined ? { fee } : {}),
  };
}

// PayMongo's text attributes (names, descriptions, remarks, notes) take at most 255 characters.
const MAX_TEXT = 255;

/** Text for a PayMongo attribute: the first of the candidates that is not blank, cut to 255 characters. */
export function paymongoText(...candidates: string[]): string {
  return (candidates.find((text) => text.trim() !== "") ?? "").slice(0, MAX_TEXT);
}

/** The object at `path` (dot-separated) under `root`, if every step is an object. */
export function objectAt(root: unknown, path: string): Record<string, unknown> | undefined {
  let current: unknown = root;
  for (const step of path.split(".")) {
    if (!isObject(current)) return undefined;
    current = current[step];
  }
  return isObject(current) ? current : undefined;
}
