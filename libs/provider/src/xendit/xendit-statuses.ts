/**
 * Xendit's statuses [O xendit.md §2, §3, §5] read as the states Bayad keeps for PayMongo's
 * resources (paymongo-resources.ts, verified-outcomes in the payments service). Each table holds
 * only what the facts file confirms; any other value (a v2 status such as `PENDING` on a v3
 * payment request, a status Xendit adds later, a typo) reads as `unknown`, which settles nothing:
 * it is never taken for paid, nor for failed (a failure would free the payer to pay twice).
 * Lookups go through Maps, so `toString` or `__proto__` is as unknown as any other word.
 */

/** A v3 payment request (`pr-`), as Bayad's payment intent states name it. */
export type XenditPaymentRequestState = "awaiting_payer" | "processing" | "succeeded" | "failed" | "expired" | "cancelled" | "unknown";

/** A payment (`py-`), as PaymongoPaymentState names it, with Xendit's explicit ends. */
export type XenditPaymentState = "pending" | "paid" | "failed" | "expired" | "cancelled" | "unknown";

/** A Payment Session (`ps-`), Bayad's checkout. `completed` is not paid until its payment is read and says so. */
export type XenditSessionState = "open" | "completed" | "expired" | "cancelled" | "unknown";

/** An invoice (legacy Payment Link), Bayad's payment link or invoice. */
export type XenditInvoiceState = "open" | "paid" | "expired" | "unknown";

/** A refund (`rfd-`), as Bayad's refund states name it: a cancelled refund returned no money, so it failed. */
export type XenditRefundState = "pending" | "succeeded" | "failed" | "unknown";

/** What a payment's `failure_code` says of who or what failed it, for messages and failover. */
export type XenditFailureKind = "payer_declined" | "payer_did_not_complete" | "channel" | "account" | "amount" | "unknown";

const table = <S extends string>(entries: Record<string, S>): ReadonlyMap<string, S> => new Map(Object.entries(entries));

const PAYMENT_REQUEST = table<XenditPaymentRequestState>({
  ACCEPTING_PAYMENTS: "awaiting_payer",
  REQUIRES_ACTION: "awaiting_payer",
  // The payer authorised; the capture (automatic, or a card's manual one) is what moves money.
  AUTHORIZED: "processing",
  SUCCEEDED: "succeeded",
  FAILED: "failed",
  EXPIRED: "expired",
  CANCELED: "cancelled",
});

const PAYMENT = table<XenditPaymentState>({
  PENDING: "pending",
  AUTHORIZED: "pending",
  SUCCEEDED: "paid",
  FAILED: "failed",
  EXPIRED: "expired",
  CANCELED: "cancelled",
});

const SESSION = table<XenditSessionState>({ ACTIVE: "open", COMPLETED: "completed", EXPIRED: "expired", CANCELED: "cancelled" });

// SETTLED comes after PAID (the money reached the merchant's balance): still paid.
const INVOICE = table<XenditInvoiceState>({ PENDING: "open", PAID: "paid", SETTLED: "paid", EXPIRED: "expired" });

// Refunds spell it CANCELLED, payments CANCELED [O]: each table keeps its resource's spelling only.
const REFUND = table<XenditRefundState>({ PENDING: "pending", SUCCEEDED: "succeeded", FAILED: "failed", CANCELLED: "failed" });

const FAILURE = table<XenditFailureKind>({
  USER_DECLINED_PAYMENT: "payer_declined",
  CARD_DECLINED: "payer_declined",
  DECLINED_BY_ISSUER: "payer_declined",
  INSUFFICIENT_BALANCE: "payer_declined",
  USER_DID_NOT_AUTHORIZE: "payer_did_not_complete",
  PAYMENT_REQUEST_EXPIRED: "payer_did_not_complete",
  CHANNEL_UNAVAILABLE: "channel",
  TIMEOUT_ERROR: "channel",
  ACCOUNT_ACCESS_BLOCKED: "account",
  PAYMENT_AMOUNT_LIMITS_EXCEEDED: "amount",
});

const lookup = <S extends string>(map: ReadonlyMap<string, S>, status: unknown, unknown: S): S =>
  (typeof status === "string" ? map.get(status) : undefined) ?? unknown;

/** A v3 payment request's `status`. */
export const xenditPaymentRequestState = (status: unknown): XenditPaymentRequestState => lookup(PAYMENT_REQUEST, status, "unknown");

/** A payment's `status`. */
export const xenditPaymentState = (status: unknown): XenditPaymentState => lookup(PAYMENT, status, "unknown");

/** A Payment Session's `status`. */
export const xenditSessionState = (status: unknown): XenditSessionState => lookup(SESSION, status, "unknown");

/** An invoice's `status` (its resource and its flat callback alike). */
export const xenditInvoiceState = (status: unknown): XenditInvoiceState => lookup(INVOICE, status, "unknown");

/** A refund's `status`. */
export const xenditRefundState = (status: unknown): XenditRefundState => lookup(REFUND, status, "unknown");

/** A payment request's or payment's `failure_code`: the outcome stays `failed` whatever this says. */
export const xenditFailureKind = (failureCode: unknown): XenditFailureKind => lookup(FAILURE, failureCode, "unknown");
