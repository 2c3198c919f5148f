import { CURRENCY } from "@bayad/kit";
import { ProviderNoAnswerError, type HostedPayment, type HostedPaymentRequest, type HostedPaymentState } from "../port.js";
import { providerUnavailable } from "../provider-errors.js";
import { toXenditAmount } from "./xendit-amounts.js";
import { xenditChannelsAccepting, xenditPaymentMethodOf, type XenditChannel } from "./xendit-channels.js";
import type { XenditClient } from "./xendit-client.js";
import { XenditRejectedError } from "./xendit-errors.js";
import { xenditInvoiceOf, type XenditInvoice } from "./xendit-resources.js";

export const INVOICE_PATHS = { invoices: "/v2/invoices", expire: (id: string) => `/invoices/${encodeURIComponent(id)}/expire!` } as const;

/** The longest an invoice lives at Xendit: one year [O xendit.md §3, FAQ]. */
const ONE_YEAR_S = 365 * 86_400;

/**
 * How long an invoice takes payments, per kind of Bayad resource (`invoice_duration`, seconds).
 * Neither ends by time in Bayad: a payment link stays active until paid or archived, a
 * subscription invoice open (or past due) until paid or voided, and the port's request names no
 * due date. So both live the longest Xendit allows; a link archived or an invoice voided in Bayad
 * is expired at Xendit by its service (expireInvoiceById), not by the clock.
 */
export const XENDIT_INVOICE_DURATION_S: Readonly<Record<HostedPaymentRequest["kind"], number>> = { payment_link: ONE_YEAR_S, invoice: ONE_YEAR_S };

// An invoice's description: its length limit is UNCONF; v3's is 1000 [O xendit.md §2].
const MAX_DESCRIPTION = 1000;

/** The answer the port gives for an invoice: Xendit hosts its own page, so no page token. */
function hostedPaymentOf(invoice: XenditInvoice, operation: string): HostedPayment {
  if (invoice.invoiceUrl === undefined) throw providerUnavailable(`Xendit answered the invoice without its invoice_url (${operation}).`);
  return { providerReference: invoice.id, referenceNumber: invoice.externalId ?? invoice.id, url: invoice.invoiceUrl, pageToken: "" };
}

/** Paid first, then open, each the oldest first: the one page a resource has, however often it is asked for. */
const RANK: Readonly<Record<XenditInvoice["state"], number>> = { paid: 0, open: 1, expired: 2, unknown: 2 };

/**
 * The invoice made for a Bayad resource, by `external_id` (Bayad's resource id): the paid one,
 * else the open one, the oldest first; undefined when none is paid or open. The list's
 * `external_id` filter is UNCONF (the facts list `GET /v2/invoices` only), so what Xendit answers
 * is filtered again here: an ignored filter finds nothing rather than another resource's invoice.
 */
export async function findXenditInvoiceOf(client: XenditClient, resourceId: string): Promise<XenditInvoice | undefined> {
  const operation = "findInvoice";
  const listed = await client.list(`${INVOICE_PATHS.invoices}?external_id=${encodeURIComponent(resourceId)}`, operation);
  const candidates = listed
    .map((object) => xenditInvoiceOf(object, operation))
    .filter((invoice) => invoice.externalId === resourceId && RANK[invoice.state] < 2)
    .sort((a, b) => RANK[a.state] - RANK[b.state] || (a.created?.getTime() ?? 0) - (b.created?.getTime() ?? 0));
  return candidates[0];
}

/**
 * `createHostedPayment` for Xendit: an invoice with `external_id` the Bayad resource id, for the
 * exact amount, offering the account's channels whose limits take it (none: AMOUNT_OUT_OF_RANGE
 * before any call), living as long as its kind says. Deterministic per resource: Xendit
 * documents no idempotency on invoices [O xendit.md §1], so the resource's invoice is looked up
 * first and answered if there is one; a create whose answer was lost is looked up once more,
 * and stays ProviderNoAnswerError when it is not found (the caller asks again later, which looks
 * it up again). Two concurrent creates for one resource could still make two invoices: the
 * services make a resource's page once, under their own idempotency.
 */
export async function createXenditHostedInvoice(
  client: XenditClient,
  channels: readonly XenditChannel[],
  request: HostedPaymentRequest,
  metadata: Record<string, string>,
): Promise<HostedPayment> {
  const operation = "createHostedPayment";
  const offered = xenditChannelsAccepting(channels, request.amount.amountMinor);
  const amount = toXenditAmount(request.amount.amountMinor);
  const existing = await findXenditInvoiceOf(client, request.resourceId);
  if (existing) return hostedPaymentOf(existing, operation);
  try {
    const created = await client.post(INVOICE_PATHS.invoices, operation, {
      external_id: request.resourceId,
      amount,
      currency: CURRENCY,
      description: (request.description.trim() || request.referenceId.trim() || request.resourceId).slice(0, MAX_DESCRIPTION),
      invoice_duration: XENDIT_INVOICE_DURATION_S[request.kind],
      payment_methods: offered,
      should_send_email: false,
      metadata,
    });
    return hostedPaymentOf(xenditInvoiceOf(created, operation), operation);
  } catch (error) {
    if (!(error instanceof ProviderNoAnswerError)) throw error;
    const made = await findXenditInvoiceOf(client, request.resourceId).catch(() => undefined);
    if (made) return hostedPaymentOf(made, operation);
    throw error;
  }
}

/**
 * An invoice as the port's hosted payment. A paid one names the id Xendit refunds it by: its
 * payment request when the invoice names one, else the invoice itself (`invoice_id` [O
 * xendit.md §5]); its method is the channel the payer used (`GCASH`, `QRPH`…), which the refund
 * rules read. A status Bayad does not know, or an amount it cannot read exactly, settles nothing:
 * PROVIDER_UNAVAILABLE, so the reconciler tries again later.
 */
export function xenditHostedPaymentState(invoice: XenditInvoice): HostedPaymentState {
  if (invoice.state === "unknown") throw providerUnavailable(`Xendit answered invoice ${invoice.id} with a status Bayad does not know.`);
  if (invoice.amountMinor === undefined) throw providerUnavailable(`Xendit answered invoice ${invoice.id} without an amount Bayad can read exactly.`);
  const base = { amountMinor: invoice.amountMinor, currency: invoice.currency ?? CURRENCY };
  if (invoice.state !== "paid") return { status: invoice.state, ...base };
  const method = invoice.paymentChannel ?? invoice.paymentMethod;
  // No fee: nothing in Xendit's published invoice fields says what it kept (xendit.md).
  const paymentMethod = xenditPaymentMethodOf(invoice.paymentChannel);
  return {
    status: "paid",
    ...base,
    providerPaymentId: invoice.paymentRequestId ?? invoice.id,
    ...(method !== undefined ? { method } : {}),
    ...(paymentMethod !== undefined ? { paymentMethod } : {}),
    ...(invoice.paidAt !== undefined ? { paidAt: invoice.paidAt } : {}),
  };
}

/**
 * `closeHostedPayment` for Xendit: the invoice is read, and expired (`expire!`) only while open.
 * One paid is answered paid, untouched (Xendit refuses to expire it); one expired already is
 * answered as it is. Should the expire be refused all the same (paid between the read and the
 * expire), it is read again and answered as Xendit has it then; a refusal that leaves it open
 * is thrown.
 */
export async function closeXenditInvoice(
  client: XenditClient,
  retrieve: (id: string) => Promise<XenditInvoice>,
  id: string,
): Promise<HostedPaymentState> {
  const state = xenditHostedPaymentState(await retrieve(id));
  if (state.status !== "open") return state;
  const operation = "expireInvoice";
  try {
    return xenditHostedPaymentState(xenditInvoiceOf(await client.post(INVOICE_PATHS.expire(id), operation, {}), operation));
  } catch (error) {
    if (!(error instanceof XenditRejectedError)) throw error;
    const now = xenditHostedPaymentState(await retrieve(id));
    if (now.status === "open") throw error;
    return now;
  }
}
