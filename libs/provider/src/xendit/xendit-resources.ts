import { ProviderNoAnswerError } from "../port.js";
import { readXenditAmount } from "./xendit-amounts.js";
import type { XenditObject } from "./xendit-http.js";
import {
  xenditInvoiceState,
  xenditPaymentRequestState,
  xenditRefundState,
  xenditSessionState,
  type XenditInvoiceState,
  type XenditPaymentRequestState,
  type XenditRefundState,
  type XenditSessionState,
} from "./xendit-statuses.js";

/**
 * Xendit's objects as Bayad reads them: the fields it decides by, statuses through
 * xendit-statuses.ts and amounts through xendit-amounts.ts (an amount that is not exact reads as
 * absent, never rounded). An object without its id is not one Bayad can follow: for a create, the
 * object may exist without Bayad knowing its id, so it is ProviderNoAnswerError.
 */

/** A Payment Session (`ps-`): Bayad's checkout on Xendit's hosted page [O xendit.md §3]. */
export interface XenditSession {
  id: string;
  state: XenditSessionState;
  referenceId?: string;
  paymentLinkUrl?: string;
  amountMinor?: number;
  currency?: string;
  /** Set once COMPLETED: the request and payment the payer made on the page. */
  paymentRequestId?: string;
  paymentId?: string;
}

/** One of a payment request's `actions[]` [O xendit.md §2]. */
export interface XenditAction {
  type: string;
  descriptor: string;
  value: string;
}

/** A v3 payment request (`pr-`). */
export interface XenditPaymentRequest {
  id: string;
  state: XenditPaymentRequestState;
  referenceId?: string;
  channelCode?: string;
  amountMinor?: number;
  currency?: string;
  actions: XenditAction[];
  latestPaymentId?: string;
  failureCode?: string;
}

/** An invoice (24 hex digits; the legacy "Payment Link"): Bayad's payment link or subscription invoice [O xendit.md §3]. */
export interface XenditInvoice {
  id: string;
  state: XenditInvoiceState;
  /** Bayad's resource id (`link_…`, `inv_…`). */
  externalId?: string;
  invoiceUrl?: string;
  amountMinor?: number;
  currency?: string;
  /** When the invoice stops taking payments. */
  expiresAt?: Date;
  created?: Date;
  /** Set once paid [O callback fields]. */
  paidAt?: Date;
  /** The legacy method family (`EWALLET`, `QR_CODE`…) and the channel (`GCASH`, `QRPH`…) the payer used. */
  paymentMethod?: string;
  paymentChannel?: string;
  paymentId?: string;
  /** The v3 payment request of its payment, if Xendit names one on the invoice (UNCONF: the facts list none). */
  paymentRequestId?: string;
}

/** A refund (`rfd-`). */
export interface XenditRefund {
  id: string;
  state: XenditRefundState;
  /** Bayad's refund id, which Bayad sends as the refund's `reference_id`. */
  referenceId?: string;
  paymentRequestId?: string;
  /** Set for a refund of an invoice (`invoice_id` [O xendit.md §5]). */
  invoiceId?: string;
  amountMinor?: number;
  currency?: string;
  failureCode?: string;
  /** What Xendit charged for the refund (`refund_fee_amount` [O xendit.md §5], pesos read as centavos); absent when not reported. */
  feeMinor?: number;
}

const textAt = (object: XenditObject, key: string): string | undefined => {
  const value = object[key];
  return typeof value === "string" && value !== "" ? value : undefined;
};

const idAt = (object: XenditObject, key: string, operation: string): string => {
  const id = textAt(object, key);
  if (id === undefined) throw new ProviderNoAnswerError(operation);
  return id;
};

const amountAt = (object: XenditObject, key: string): number | undefined => {
  const reading = readXenditAmount(object[key]);
  return reading.ok ? reading.amountMinor : undefined;
};

/** Copies the defined entries only, so optional fields stay absent under exactOptionalPropertyTypes. */
const defined = <T extends object>(fields: T): T => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;

export function xenditSessionOf(object: XenditObject, operation: string): XenditSession {
  return defined({
    id: idAt(object, "payment_session_id", operation),
    state: xenditSessionState(object["status"]),
    referenceId: textAt(object, "reference_id"),
    paymentLinkUrl: textAt(object, "payment_link_url"),
    amountMinor: amountAt(object, "amount"),
    currency: textAt(object, "currency"),
    paymentRequestId: textAt(object, "payment_request_id"),
    paymentId: textAt(object, "payment_id"),
  });
}

function actionsOf(value: unknown): XenditAction[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null) return [];
    const action = item as XenditObject;
    const [type, descriptor, text] = [textAt(action, "type"), textAt(action, "descriptor"), textAt(action, "value")];
    return type !== undefined && descriptor !== undefined && text !== undefined ? [{ type, descriptor, value: text }] : [];
  });
}

export function xenditPaymentRequestOf(object: XenditObject, operation: string): XenditPaymentRequest {
  return defined({
    id: idAt(object, "payment_request_id", operation),
    state: xenditPaymentRequestState(object["status"]),
    referenceId: textAt(object, "reference_id"),
    channelCode: textAt(object, "channel_code"),
    amountMinor: amountAt(object, "request_amount"),
    currency: textAt(object, "currency"),
    actions: actionsOf(object["actions"]),
    latestPaymentId: textAt(object, "latest_payment_id"),
    failureCode: textAt(object, "failure_code"),
  });
}

const dateAt = (object: XenditObject, key: string): Date | undefined => {
  const text = textAt(object, key);
  const date = text === undefined ? undefined : new Date(text);
  return date === undefined || Number.isNaN(date.getTime()) ? undefined : date;
};

/** Xendit's invoice ids are 24 hex digits [O xendit.md §1]. */
export const XENDIT_INVOICE_ID = /^[0-9a-f]{24}$/i;

export function xenditInvoiceOf(object: XenditObject, operation: string): XenditInvoice {
  return defined({
    id: idAt(object, "id", operation),
    state: xenditInvoiceState(object["status"]),
    externalId: textAt(object, "external_id"),
    invoiceUrl: textAt(object, "invoice_url"),
    amountMinor: amountAt(object, "amount"),
    currency: textAt(object, "currency"),
    expiresAt: dateAt(object, "expiry_date"),
    created: dateAt(object, "created"),
    paidAt: dateAt(object, "paid_at"),
    paymentMethod: textAt(object, "payment_method"),
    paymentChannel: textAt(object, "payment_channel"),
    paymentId: textAt(object, "payment_id"),
    paymentRequestId: textAt(object, "payment_request_id"),
  });
}

export function xenditRefundOf(object: XenditObject, operation: string): XenditRefund {
  return defined({
    id: idAt(object, "id", operation),
    state: xenditRefundState(object["status"]),
    referenceId: textAt(object, "reference_id"),
    paymentRequestId: textAt(object, "payment_request_id"),
    invoiceId: textAt(object, "invoice_id"),
    amountMinor: amountAt(object, "amount"),
    currency: textAt(object, "currency"),
    failureCode: textAt(object, "failure_code"),
    feeMinor: amountAt(object, "refund_fee_amount"),
  });
}

/** The value of the first action of `type` and `descriptor` (e-wallets: REDIRECT_CUSTOMER / WEB_URL; QR Ph: PRESENT_TO_CUSTOMER / QR_STRING). */
export function xenditActionValue(request: XenditPaymentRequest, type: string, descriptor: string): string | undefined {
  return request.actions.find((action) => action.type === type && action.descriptor === descriptor)?.value;
}
