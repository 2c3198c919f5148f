import { randomUUID } from "node:crypto";
import { readPesos, toCentavos } from "../amounts.js";
import { validationError, XenditSimulatorError } from "../api-error.js";
import type { Account } from "../auth.js";
import { BodyReader } from "../body-reader.js";
import { CHANNELS, channelOf, type Channel } from "../channels.js";
import { isoNow, newInvoiceId } from "../ids.js";
import { afterLong } from "../long-timer.js";
import type { Simulation } from "../simulation.js";
import type { Stored } from "../state.js";

/** `invoice_duration` when none is sent: UNCONF; the docs' example, 86 400 s (24 h) [O]. */
export const INVOICE_DEFAULT_DURATION_S = 86_400;
/** The longest an invoice lives: one year [O FAQ]. */
export const INVOICE_MAX_DURATION_S = 365 * 86_400;

/** How the invoice's `payment_method` names a channel's kind once paid (values UNCONF; the legacy API's words). */
const PAYMENT_METHOD_OF_KIND: Readonly<Record<Channel["kind"], string>> = { redirect: "EWALLET", qr: "QR_CODE" };

/**
 * `POST /v2/invoices` [O xendit-node invoice/]: a hosted page (the legacy "Payment Link") for
 * `amount` pesos, PENDING until paid or expired. The simulator serves PHP invoices paid by the
 * channels it knows; `payment_methods` takes their v3 codes (the PH values are UNCONF), and only
 * those whose limits take the amount are offered (none: 400 API_VALIDATION_ERROR).
 */
export function createInvoice(sim: Simulation, account: Account, body: Record<string, unknown>): Record<string, unknown> {
  const read = new BodyReader(body);
  const externalId = read.string("external_id", { max: 255 });
  const amount = readPesos(read.raw("amount"), "amount", { positive: true });
  // The default currency is the account's (UNCONF); the simulator's accounts are PH accounts.
  const currency = read.has("currency") ? read.oneOf("currency", ["PHP"]) : "PHP";
  const durationS = read.has("invoice_duration") ? duration(read.raw("invoice_duration")) : INVOICE_DEFAULT_DURATION_S;
  const methods = offeredChannels(read.raw("payment_methods"), amount);
  const id = newInvoiceId();
  const expiryDate = new Date(Date.now() + durationS * 1000);
  const stored = sim.state.put("invoice", account, id, {
    id,
    external_id: externalId,
    user_id: account.businessId,
    status: "PENDING",
    merchant_name: "Xendit Simulator Merchant",
    amount,
    payer_email: read.optionalString("payer_email") ?? null,
    description: read.optionalString("description", { max: 1000 }) ?? null,
    invoice_url: `${sim.state.baseUrl}/web/${id}`,
    expiry_date: expiryDate.toISOString(),
    available_ewallets: methods.filter((c) => c.kind === "redirect").map((c) => ({ ewallet_type: c.code })),
    available_qr_codes: methods.filter((c) => c.kind === "qr").map((c) => ({ qr_code_type: c.code })),
    available_banks: [],
    available_retail_outlets: [],
    available_direct_debits: [],
    available_paylaters: [],
    should_exclude_credit_card: true,
    should_send_email: read.has("should_send_email") ? read.raw("should_send_email") === true : false,
    success_redirect_url: redirectUrl(read, "success_redirect_url"),
    failure_redirect_url: redirectUrl(read, "failure_redirect_url"),
    currency,
    locale: read.optionalString("locale") ?? null,
    items: arrayOrNull(read, "items"),
    fees: arrayOrNull(read, "fees"),
    customer: read.optionalObject("customer") ?? null,
    metadata: read.metadata(),
  });
  stored.internal["channels"] = methods.map((c) => c.code);
  afterLong(sim.timers, durationS * 1000, () => {
    if (stored.body["status"] === "PENDING") expireInvoice(sim, stored);
  });
  return sim.state.view(stored);
}

/**
 * `GET /v2/invoices` [O]: the account's invoices, newest first, as a JSON array. The
 * `external_id` filter is UNCONF (the official SDK's list takes one; the facts do not confirm
 * it); `limit` 1–100, default 10 (UNCONF). Other filters are not served and are ignored.
 */
export function listInvoices(sim: Simulation, account: Account, query: URLSearchParams): Array<Record<string, unknown>> {
  const externalId = query.get("external_id");
  const limitText = query.get("limit");
  const limit = limitText === null ? 10 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError("limit must be an integer from 1 to 100.");
  return sim.state
    .all("invoice", (s) => s.account.owner === account.owner && (externalId === null || s.body["external_id"] === externalId))
    .reverse()
    .slice(0, limit)
    .map((s) => sim.state.view(s));
}

/**
 * `POST /invoices/{id}/expire!` [O], and the invoice's own expiry: EXPIRED, and its expired
 * callback [O]. Expiring an EXPIRED invoice again answers it unchanged (so a resend after a lost
 * answer is harmless); a paid one cannot expire. Both choices, and the error code, are UNCONF.
 */
export function expireInvoice(sim: Simulation, invoice: Stored): Record<string, unknown> {
  if (invoice.body["status"] === "EXPIRED") return sim.state.view(invoice);
  requirePending(invoice);
  sim.state.update(invoice, { status: "EXPIRED" });
  sim.state.emitInvoice("invoice.expired", invoice);
  return sim.state.view(invoice);
}

/**
 * The payer pays on the hosted page with `channelCode` (the first offered by default): PAID with
 * the payment's fields as the callback lists them [O: paid_amount, paid_at, payment_method,
 * payment_channel, payment_destination, payment_id], and the paid callback. The form of
 * `payment_id` is UNCONF: a UUID. No v3 payment request is made (that an invoice's payment is one
 * is UNCONF), so refunds name the invoice (`invoice_id`).
 */
export function payInvoice(sim: Simulation, invoice: Stored, channelCode?: string): { paymentId: string } {
  requirePending(invoice);
  const offered = invoice.internal["channels"] as string[];
  const code = channelCode ?? offered[0];
  if (code === undefined || !offered.includes(code)) throw validationError(`This invoice takes ${offered.join(", ")}.`);
  const channel = channelOf(code);
  const paymentId = randomUUID();
  sim.state.update(invoice, {
    status: "PAID",
    paid_amount: invoice.body["amount"],
    paid_at: isoNow(),
    payment_method: PAYMENT_METHOD_OF_KIND[channel.kind],
    payment_channel: channel.code,
    payment_destination: null,
    payment_id: paymentId,
  });
  invoice.internal["refundedCentavos"] = 0;
  sim.state.emitInvoice("invoice.paid", invoice);
  return { paymentId };
}

/** The money reached the merchant's balance: PAID → SETTLED [O]. No callback (the facts name two: paid and expired). */
export function settleInvoice(sim: Simulation, invoice: Stored): void {
  if (invoice.body["status"] !== "PAID") {
    throw new XenditSimulatorError(400, "INACTIVE_PAYMENT_REQUEST", `The invoice is ${String(invoice.body["status"])}, not PAID.`);
  }
  sim.state.update(invoice, { status: "SETTLED" });
}

/** Whether the invoice was paid (PAID or SETTLED), so it can be refunded. */
export const isPaidInvoice = (invoice: Stored): boolean => invoice.body["status"] === "PAID" || invoice.body["status"] === "SETTLED";

/** What is left to refund of a paid invoice, in centavos. */
export const invoiceCentavos = (invoice: Stored): number => toCentavos(invoice.body["paid_amount"] as number);

function requirePending(invoice: Stored): void {
  if (invoice.body["status"] !== "PENDING") {
    // Expired invoices cannot be paid [O FAQ]; the code answered is UNCONF (the v3 requests' INACTIVE_PAYMENT_REQUEST).
    throw new XenditSimulatorError(400, "INACTIVE_PAYMENT_REQUEST", `The invoice is ${String(invoice.body["status"])}.`);
  }
}

function duration(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > INVOICE_MAX_DURATION_S) {
    throw validationError(`invoice_duration must be a whole number of seconds from 1 to ${INVOICE_MAX_DURATION_S} (one year).`);
  }
  return value;
}

/** The channels the invoice offers: those asked for (all the simulator's by default) whose limits take the amount. */
function offeredChannels(value: unknown, amount: number): Channel[] {
  if (value !== undefined && value !== null && (!Array.isArray(value) || value.length === 0)) {
    throw validationError("payment_methods must be a non-empty array of payment method codes.");
  }
  const asked = Array.isArray(value) ? value.map((code) => channelOf(code)) : [...CHANNELS.values()];
  const centavos = toCentavos(amount);
  const taking = asked.filter((c) => centavos >= c.minCentavos && centavos <= c.maxCentavos);
  if (taking.length === 0) {
    const limits = asked.map((c) => `${c.code} ${c.minCentavos / 100}–${c.maxCentavos / 100}`).join(", ");
    throw validationError(`amount is outside the limits of every payment method asked for (${limits} PHP).`);
  }
  return taking;
}

function redirectUrl(read: BodyReader, field: string): string | null {
  const url = read.optionalString(field, { max: 255 });
  if (url === undefined) return null;
  if (!/^https?:\/\//.test(url) || !URL.canParse(url)) throw validationError(`${field} must be an absolute http(s) URL.`);
  return url;
}

function arrayOrNull(read: BodyReader, field: string): unknown[] | null {
  if (!read.has(field)) return null;
  const value = read.raw(field);
  if (!Array.isArray(value)) throw validationError(`${field} must be an array.`);
  return value as unknown[];
}
