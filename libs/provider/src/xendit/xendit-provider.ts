import { createHash } from "node:crypto";
import { AppError, CURRENCY } from "@bayad/kit";
import { ProviderRefusedRefundError, type PaymentProvider, type ProviderCallContext } from "../port.js";
import { providerUnavailable } from "../provider-errors.js";
import { renderQrPng } from "../qrph/qr-image.js";
import { toXenditAmount } from "./xendit-amounts.js";
import {
  assertXenditAmount,
  XENDIT_CHANNELS,
  xenditChannelOf,
  xenditChannelOfIntent,
  xenditChannelsAccepting,
  xenditIntentMethodOptions,
  type XenditChannel,
} from "./xendit-channels.js";
import { createXenditClient } from "./xendit-client.js";
import { XenditRejectedError } from "./xendit-errors.js";
import { XENDIT_API_BASE_DEFAULT } from "./xendit-http.js";
import { closeXenditInvoice, createXenditHostedInvoice, INVOICE_PATHS, xenditHostedPaymentState } from "./xendit-invoices.js";
import { xenditRefundRefusal, xenditRefundRefusalOf } from "./xendit-refund-rules.js";
import {
  XENDIT_INVOICE_ID,
  xenditActionValue,
  xenditInvoiceOf,
  xenditPaymentRequestOf,
  xenditRefundOf,
  xenditSessionOf,
  type XenditInvoice,
  type XenditPaymentRequest,
  type XenditRefund,
  type XenditSession,
} from "./xendit-resources.js";

export interface XenditProviderOptions {
  /** The account's secret key (`xnd_development_…` / `xnd_production_…`). Never logged. */
  secretKey: string;
  /** Default https://api.xendit.co (one host for test and live: the key decides). */
  apiBase?: string;
  /** The channels enabled on the Xendit account; default every channel this adapter serves. */
  channels?: readonly XenditChannel[];
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
}

/** The port, plus the read-backs that callbacks (hints only) and reconciliation need, and closing the connection pool. */
export interface XenditProvider extends PaymentProvider {
  retrieveSessionById(id: string): Promise<XenditSession>;
  retrievePaymentRequestById(id: string): Promise<XenditPaymentRequest>;
  retrieveRefundById(id: string): Promise<XenditRefund>;
  retrieveInvoiceById(id: string): Promise<XenditInvoice>;
  /**
   * Expires an open invoice (`POST /invoices/{id}/expire!` [O]), so a page Bayad no longer shows
   * (a link archived, an invoice voided) cannot be paid at Xendit either. A paid invoice cannot
   * expire: Xendit refuses (XenditRejectedError).
   */
  expireInvoiceById(id: string): Promise<XenditInvoice>;
  close(): Promise<void>;
}

const PATHS = { sessions: "/sessions", paymentRequests: "/v3/payment_requests", payments: "/v3/payments", refunds: "/refunds", invoices: INVOICE_PATHS.invoices } as const;
const at = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

// Xendit's refund reasons [O xendit.md §5]; any other Bayad reason goes as OTHERS, its text in metadata.
const REFUND_REASONS = new Set(["FRAUDULENT", "DUPLICATE", "REQUESTED_BY_CUSTOMER", "CANCELLATION", "OTHERS"]);
// Xendit's metadata values hold at most 500 characters [O xendit.md §2].
const MAX_METADATA_VALUE = 500;

/** What Bayad puts on objects that take metadata, so a lost answer's object can be told apart by a person or a later lookup. */
const bayadMetadata = (resourceId: string, context: ProviderCallContext): Record<string, string> => ({
  bayad_resource_id: resourceId,
  bayad_idempotency_key: context.idempotencyKey.slice(0, MAX_METADATA_VALUE),
});

/** The `idempotency-key` of a refund: derived from Bayad's key and refund, so a resend of the same refund sends the same key. */
const refundIdempotencyKey = (context: ProviderCallContext, refundId: string) =>
  createHash("sha256").update(JSON.stringify(["bayad", context.idempotencyKey, refundId, "createRefund"])).digest("hex");

function notServed(operation: string, why: string): AppError {
  return new AppError("PAYMENT_METHOD_NOT_OFFERED", `Xendit accounts do not offer ${operation} yet.`, { details: [`provider: ${why}`] });
}

/**
 * The Xendit adapter behind the same port as PayMongo's: Payment Sessions for checkouts, v3
 * payment requests for e-wallet redirects and QR Ph (its EMVCo string rendered by Bayad as a PNG
 * data URL, as Xendit gives no image), invoices (the legacy "Payment Link", /v2/invoices) for
 * payment links and subscription invoices, refunds by payment request or by invoice. Xendit
 * hosts its own pages, so page tokens are "".
 *
 * Hosted payments (see xendit-invoices.ts): an invoice with `external_id` the Bayad resource id,
 * looked up by it before one is made and after a lost answer, so asking again for a resource
 * answers its invoice; a year to pay for either kind (Bayad ends them itself: expireInvoiceById);
 * `hostedPaymentState` reads the invoice back for the reconcilers. A paid invoice is refunded by
 * the id that state names (`providerPaymentId`: the invoice, as `invoice_id`).
 *
 * What it does not do, and says so instead of pretending:
 * - `retrieveCheckoutSession` answers null: Xendit documents no lookup of a session by
 *   `reference_id` (only by its `ps-` id, which a lost answer never gave) and no idempotency on
 *   POST /sessions. The caller then makes a fresh session; the lost one's URL reached nobody, so
 *   nobody can pay it, and it expires by itself (30 min [O]).
 * - `confirmPaymentIntent` (a server-side confirm) throws PAYMENT_METHOD_NOT_OFFERED before any
 *   call: a payment request is made with its channel at once.
 * - Creates are never sent twice (see createXenditHttp): a lost answer is ProviderNoAnswerError,
 *   except for an invoice, which is then looked up by its `external_id`.
 */
export function createXenditProvider(options: XenditProviderOptions): XenditProvider {
  const client = createXenditClient({
    apiBase: options.apiBase ?? XENDIT_API_BASE_DEFAULT,
    secretKey: options.secretKey,
    ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.responseTimeoutMs !== undefined ? { responseTimeoutMs: options.responseTimeoutMs } : {}),
  });
  const channels: XenditChannel[] = [...(options.channels ?? XENDIT_CHANNELS)];

  const retrieveRequest = async (id: string) => {
    const operation = "retrievePaymentRequest";
    return xenditPaymentRequestOf(await client.get(at(PATHS.paymentRequests, id), operation), operation);
  };

  const retrieveInvoice = async (id: string) => {
    const operation = "retrieveInvoice";
    return xenditInvoiceOf(await client.get(at(PATHS.invoices, id), operation), operation);
  };

  /** The payment request a refund names: Bayad may know the payment (`py-`) rather than its request. */
  const paymentRequestIdOf = async (providerPaymentId: string): Promise<string> => {
    if (!providerPaymentId.startsWith("py-")) return providerPaymentId;
    const payment = await client.get(at(PATHS.payments, providerPaymentId), "retrievePayment");
    const requestId = payment["payment_request_id"];
    if (typeof requestId !== "string" || requestId === "") throw providerUnavailable("Xendit answered a payment without its payment_request_id.");
    return requestId;
  };

  return {
    name: "xendit",
    paymentMethods: channels,
    paymentIntentMethods: xenditIntentMethodOptions(channels),

    // reference_id is Bayad's checkout id (≤64 [O]), so the session and its payment name the checkout.
    async createCheckoutSession(request) {
      const operation = "createCheckoutSession";
      const allowed = xenditChannelsAccepting(channels, request.amount.amountMinor);
      const session = xenditSessionOf(
        await client.post(PATHS.sessions, operation, {
          reference_id: request.checkoutId,
          session_type: "PAY",
          mode: "PAYMENT_LINK",
          amount: toXenditAmount(request.amount.amountMinor),
          currency: CURRENCY,
          country: "PH",
          allowed_payment_channels: allowed,
          success_return_url: request.successUrl,
          cancel_return_url: request.cancelUrl,
          description: request.referenceId.slice(0, 1000),
        }),
        operation,
      );
      if (session.paymentLinkUrl === undefined) throw providerUnavailable("Xendit answered the session without its payment_link_url.");
      return { providerReference: session.id, checkoutUrl: session.paymentLinkUrl, pageToken: "" };
    },

    retrieveCheckoutSession: () => Promise.resolve(null),

    confirmPaymentIntent() {
      return Promise.reject(notServed("server-side payment intent confirmation", "a Xendit payment request is made with its channel at once (createRedirectPaymentIntent, createQrPh)"));
    },

    async createRedirectPaymentIntent(request, context) {
      const operation = "createRedirectPaymentIntent";
      const channel = xenditChannelOfIntent(request.method, channels);
      assertXenditAmount(channel, request.amount.amountMinor);
      const created = xenditPaymentRequestOf(
        await client.post(PATHS.paymentRequests, operation, {
          reference_id: request.paymentIntentId,
          type: "PAY",
          country: "PH",
          currency: CURRENCY,
          request_amount: toXenditAmount(request.amount.amountMinor),
          channel_code: channel,
          // One page for every ending: Bayad reads the outcome back from Xendit, not from the URL.
          channel_properties: { success_return_url: request.returnUrl, failure_return_url: request.returnUrl, cancel_return_url: request.returnUrl },
          description: request.referenceId.slice(0, 1000),
          metadata: bayadMetadata(request.paymentIntentId, context),
        }),
        operation,
      );
      if (created.state === "failed") return { providerReference: created.id, outcome: "declined", redirectUrl: "", pageToken: "" };
      const redirectUrl = xenditActionValue(created, "REDIRECT_CUSTOMER", "WEB_URL");
      // Nobody has a way to pay this request, so it moves no money: a retry may safely make another.
      if (redirectUrl === undefined) throw providerUnavailable("Xendit answered the payment request without a REDIRECT_CUSTOMER WEB_URL action.");
      return { providerReference: created.id, outcome: "awaiting_payer", redirectUrl, pageToken: "" };
    },

    // QR Ph's expiry is not settable at Xendit [O xendit.md §4]: request.expirySeconds is not sent.
    async createQrPh(request, context) {
      const operation = "createQrPh";
      if (!channels.includes("QRPH")) throw new AppError("PAYMENT_METHOD_NOT_OFFERED", undefined, { details: ["paymentMethod: QR Ph is not offered by this Xendit account"] });
      assertXenditAmount("QRPH", request.amount.amountMinor);
      const created = xenditPaymentRequestOf(
        await client.post(PATHS.paymentRequests, operation, {
          reference_id: request.paymentIntentId,
          type: "PAY",
          country: "PH",
          currency: CURRENCY,
          request_amount: toXenditAmount(request.amount.amountMinor),
          channel_code: "QRPH",
          channel_properties: {},
          description: (request.description || request.referenceId).slice(0, 1000),
          metadata: bayadMetadata(request.paymentIntentId, context),
        }),
        operation,
      );
      const payload = xenditActionValue(created, "PRESENT_TO_CUSTOMER", "QR_STRING");
      if (payload === undefined) throw providerUnavailable("Xendit answered the QR Ph payment request without a QR_STRING action.");
      const pngBase64 = (await renderQrPng(payload)).toString("base64");
      return { providerReference: created.id, payload, imageUrl: `data:image/png;base64,${pngBase64}`, pageToken: "", imagePngBase64: pngBase64 };
    },

    createHostedPayment: (request, context) => createXenditHostedInvoice(client, channels, request, bayadMetadata(request.resourceId, context)),

    hostedPaymentState: async (providerReference) => xenditHostedPaymentState(await retrieveInvoice(providerReference)),

    closeHostedPayment: (providerReference) => closeXenditInvoice(client, retrieveInvoice, providerReference),

    // An expired invoice cannot be paid again [O xendit.md §3]: the resource gets a new invoice
    // (its expired one is not found again by external_id), with its own id and page. One still
    // open (never closed) is answered as it is.
    reopenHostedPayment: (request, _providerReference, context) => createXenditHostedInvoice(client, channels, request, bayadMetadata(request.resourceId, context)),

    /**
     * `providerPaymentId` is the Xendit payment request (`pr-…`), its payment (`py-…`, read back
     * to its request), or a paid invoice (24 hex digits, refunded by `invoice_id` [O xendit.md
     * §5]). The amount is always sent, so a partial and a full refund are the same call. A QR Ph payment is refused before calling (refundRefusal); Xendit's own
     * refusals (its 4xx) become ProviderRefusedRefundError.
     */
    async createRefund(request, context) {
      const operation = "createRefund";
      if (request.providerPaymentId === undefined) {
        throw new ProviderRefusedRefundError("REFUND_NOT_ALLOWED", "Xendit refunds a payment by its payment request or invoice, neither of which is known for this payment.", {
          details: [`paymentId: no Xendit payment request (pr-…) or invoice is known for ${request.paymentId} (rule: provider_payment_unknown)`],
        });
      }
      const refunded = XENDIT_INVOICE_ID.test(request.providerPaymentId)
        ? { invoice_id: request.providerPaymentId }
        : { payment_request_id: await paymentRequestIdOf(request.providerPaymentId) };
      const reason = request.reason.trim().toUpperCase();
      const known = REFUND_REASONS.has(reason);
      try {
        const refund = await client.post(
          PATHS.refunds,
          operation,
          {
            ...refunded,
            reference_id: request.refundId,
            currency: CURRENCY,
            amount: toXenditAmount(request.amount.amountMinor),
            reason: known ? reason : "OTHERS",
            metadata: {
              ...bayadMetadata(request.refundId, context),
              ...(known || request.reason.trim() === "" ? {} : { bayad_reason: request.reason.trim().slice(0, MAX_METADATA_VALUE) }),
            },
          },
          { idempotencyKey: refundIdempotencyKey(context, request.refundId) },
        );
        return { providerReference: xenditRefundOf(refund, operation).id };
      } catch (error) {
        throw (error instanceof XenditRejectedError && xenditRefundRefusalOf(error)) || error;
      }
    },

    refundRefusal: xenditRefundRefusal,

    checkAmount({ flow, amount, paymentMethodType }) {
      if (flow === "checkout") {
        xenditChannelsAccepting(channels, amount.amountMinor);
        return;
      }
      // An invoice offers the account's channels that take its amount, as a session does.
      if (flow === "hosted_payment") {
        xenditChannelsAccepting(channels, amount.amountMinor);
        return;
      }
      const channel = paymentMethodType === undefined ? undefined : xenditChannelOf(paymentMethodType);
      if (channel === undefined || !channels.includes(channel)) {
        throw new AppError("PAYMENT_METHOD_NOT_OFFERED", undefined, {
          details: [`paymentMethodType: ${paymentMethodType ?? "none"} is not offered by this Xendit account (it offers ${channels.join(", ")})`],
        });
      }
      assertXenditAmount(channel, amount.amountMinor);
    },

    decidePayment() {
      throw new AppError("INVALID_STATE_TRANSITION", "Payer actions are simulated only in the sandbox.");
    },

    async retrieveSessionById(id) {
      const operation = "retrieveSession";
      return xenditSessionOf(await client.get(at(PATHS.sessions, id), operation), operation);
    },

    retrievePaymentRequestById: retrieveRequest,

    async retrieveRefundById(id) {
      const operation = "retrieveRefund";
      return xenditRefundOf(await client.get(at(PATHS.refunds, id), operation), operation);
    },

    retrieveInvoiceById: retrieveInvoice,

    async expireInvoiceById(id) {
      const operation = "expireInvoice";
      return xenditInvoiceOf(await client.post(INVOICE_PATHS.expire(id), operation, {}), operation);
    },

    close: () => client.close(),
  };
}
