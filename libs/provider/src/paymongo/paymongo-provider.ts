import { AppError, CURRENCY } from "@bayad/kit";
import { ProviderRefusedRefundError, type CheckoutSession, type CheckoutSessionRequest, type PaymentProvider, type ProviderCallContext } from "../port.js";
import type { PaymongoClient } from "./paymongo-client.js";
import { pathOf, PAYMONGO_PATHS } from "./paymongo-endpoints.js";
import { assertPaymongoAmount, checkoutMethodsAccepting } from "./paymongo-amount-limits.js";
import { paymongoIdempotencyKey } from "./paymongo-idempotency-key.js";
import { confirmWithPaymongo, createQrPhWithPaymongo, createRedirectWithPaymongo } from "./paymongo-intents.js";
import { intentMethodOptionsOf } from "./paymongo-intent-methods.js";
import { PaymongoRejectedError } from "./paymongo-errors.js";
import { paymongoHostedPaymentState } from "./paymongo-hosted-payment-state.js";
import { paymongoRefundRefusal, paymongoRefundRefusalOf } from "./paymongo-refund-rules.js";
import {
  checkoutSessionStateOf,
  linkStateOf,
  paymentIntentStateOf,
  paymongoText,
  refundStateOf,
  resourceOf,
  resourcesOf,
  textAt,
  type PaymongoCheckoutSessionState,
  type PaymongoLinkState,
  type PaymongoPaymentIntentState,
  type PaymongoRefundState,
} from "./paymongo-resources.js";

export interface PaymongoProviderOptions {
  client: PaymongoClient;
  /** The method types enabled on the PayMongo account (`qrph`, `gcash`, `card`…). */
  paymentMethodTypes: readonly string[];
  livemode: boolean;
  /** Where PayMongo sends a payer back after an e-wallet's page, when a confirmation names no returnUrl (PayMongo requires one). */
  returnUrl?: string;
}

/** The port, plus the look-ups that webhooks and reconciliation need. */
export interface PaymongoProvider extends PaymentProvider {
  retrieveCheckoutSessionById(id: string): Promise<PaymongoCheckoutSessionState>;
  retrievePaymentIntentById(id: string): Promise<PaymongoPaymentIntentState>;
  /** The refunds of a PayMongo payment (`pay_…`): how a refund whose answer was lost is found, by its metadata. */
  listRefundsOfPayment(paymentId: string): Promise<PaymongoRefundState[]>;
  retrieveRefundById(id: string): Promise<PaymongoRefundState>;
  retrieveLinkById(id: string): Promise<PaymongoLinkState>;
  createCustomer(input: { customerId: string; name?: string; email: string }): Promise<{ providerReference: string }>;
}

/**
 * The metadata keys Bayad puts on every PayMongo object, so reconciliation can tell what a lost
 * answer made once PayMongo has forgotten the Idempotency-Key (after 24 h).
 */
export const BAYAD_RESOURCE_ID = "bayad_resource_id";
export const BAYAD_IDEMPOTENCY_KEY = "bayad_idempotency_key";

const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer", "others"];

const bayadMetadata = (resourceId: string, context: ProviderCallContext): Record<string, string> => ({
  [BAYAD_RESOURCE_ID]: resourceId,
  [BAYAD_IDEMPOTENCY_KEY]: context.idempotencyKey,
});

/**
 * The PayMongo adapter: live (and PayMongo test) mode behind the same port as the sandbox.
 * PayMongo hosts its own pages, so no page tokens are issued (""), and PayMongo decides payments
 * itself, so decidePayment refuses.
 */
export function createPaymongoProvider(options: PaymongoProviderOptions): PaymongoProvider {
  const { client } = options;
  // A test key in a live account (or the reverse) is a wiring mistake that must not move money.
  if (client.livemode !== options.livemode) {
    throw new AppError("VALIDATION_FAILED", "The PayMongo key's mode does not match the account's.", {
      details: [`secretKey: a ${client.livemode ? "live" : "test"} key (${client.keyHint}) for a ${options.livemode ? "live" : "test"} account`],
    });
  }
  const paymentMethods = [...options.paymentMethodTypes];
  const paymentIntentMethods = intentMethodOptionsOf(paymentMethods);
  const intentDeps = { client, paymentMethodTypes: paymentMethods, ...(options.returnUrl !== undefined ? { returnUrl: options.returnUrl } : {}) };

  const createSession = async (request: CheckoutSessionRequest, context: ProviderCallContext): Promise<CheckoutSession> => {
    const operation = "createCheckoutSession";
    const methods = checkoutMethodsAccepting(paymentMethods, request.amount.amountMinor);
    const idempotencyKey = paymongoIdempotencyKey(context.idempotencyKey, request.checkoutId, operation, "checkout_session");
    const document = await client.post(PAYMONGO_PATHS.checkoutSessions, operation, {
      line_items: [{ name: paymongoText(request.referenceId), amount: request.amount.amountMinor, currency: CURRENCY, quantity: 1 }],
      payment_method_types: methods,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      reference_number: request.referenceId,
      send_email_receipt: false,
      show_line_items: true,
      metadata: bayadMetadata(request.checkoutId, context),
    }, { idempotencyKey });
    const session = resourceOf(document, operation);
    return { providerReference: session.id, checkoutUrl: textAt(session.attributes, "checkout_url") ?? "", pageToken: "" };
  };

  const retrieveLink = async (id: string): Promise<PaymongoLinkState> => {
    const operation = "retrieveLink";
    return linkStateOf(resourceOf(await client.get(pathOf(PAYMONGO_PATHS.links, id), operation), operation));
  };

  /** Archives (or unarchives) a link (`/v1/links/{id}/archive`); PayMongo's archive is idempotent, so asking again after a lost answer is safe. */
  const setLinkArchived = async (id: string, archived: boolean): Promise<PaymongoLinkState> => {
    const operation = archived ? "archiveLink" : "unarchiveLink";
    return linkStateOf(resourceOf(await client.post(pathOf(PAYMONGO_PATHS.links, id, archived ? "archive" : "unarchive"), operation), operation));
  };

  return {
    name: "paymongo",
    paymentMethods,
    paymentIntentMethods,

    createCheckoutSession: createSession,

    // The create sent again with the same Idempotency-Key: within PayMongo's 24 h it answers with
    // the session a lost create made. Past them (PayMongo cannot look a session up by its
    // metadata) it makes a fresh one, which is safe: an unpaid session moves no money and its
    // URL never reached anyone, and only the session answered here is ever handed out.
    retrieveCheckoutSession: createSession,

    confirmPaymentIntent: (request, context) =>
      confirmWithPaymongo(intentDeps, request, bayadMetadata(request.paymentIntentId, context), (step) =>
        paymongoIdempotencyKey(context.idempotencyKey, request.paymentIntentId, "confirmPaymentIntent", step),
      ),

    // Whether the account offers the method is the payments service's check (paymentIntentMethods).
    createRedirectPaymentIntent: (request, context) =>
      createRedirectWithPaymongo(intentDeps, request, bayadMetadata(request.paymentIntentId, context), (step) =>
        paymongoIdempotencyKey(context.idempotencyKey, request.paymentIntentId, "createRedirectPaymentIntent", step),
      ),

    createQrPh: (request, context) =>
      createQrPhWithPaymongo(intentDeps, request, bayadMetadata(request.paymentIntentId, context), (step) =>
        paymongoIdempotencyKey(context.idempotencyKey, request.paymentIntentId, "createQrPh", step),
      ),

    // PayMongo's links carry no metadata; `remarks` holds the Bayad id. The Idempotency-Key makes
    // asking again within 24 h answer with the same link; past them it makes a second one, and
    // the payments service keeps the first it was answered.
    async createHostedPayment(request, context) {
      const operation = "createHostedPayment";
      assertPaymongoAmount("link", "link", request.amount.amountMinor);
      const idempotencyKey = paymongoIdempotencyKey(context.idempotencyKey, request.resourceId, operation, "link");
      const document = await client.post(PAYMONGO_PATHS.links, operation, {
        amount: request.amount.amountMinor,
        description: paymongoText(request.description, request.referenceId),
        remarks: request.resourceId,
      }, { idempotencyKey });
      const link = linkStateOf(resourceOf(document, operation));
      return { providerReference: link.id, referenceNumber: link.referenceNumber, url: link.checkoutUrl, pageToken: "" };
    },

    async createRefund(request, context) {
      if (!request.providerPaymentId) {
        throw new ProviderRefusedRefundError("REFUND_NOT_ALLOWED", "PayMongo refunds a payment by its own id, which is not known for this payment.", {
          details: [`paymentId: no PayMongo payment (pay_…) is known for ${request.paymentId} (rule: provider_payment_unknown)`],
        });
      }
      const operation = "createRefund";
      const known = REFUND_REASONS.includes(request.reason);
      const notes = known ? "" : paymongoText(request.reason.trim());
      try {
        const document = await client.post(PAYMONGO_PATHS.refunds, operation, {
          amount: request.amount.amountMinor,
          payment_id: request.providerPaymentId,
          reason: known ? request.reason : "others",
          ...(notes !== "" ? { notes } : {}),
          metadata: bayadMetadata(request.refundId, context),
        }, { idempotencyKey: paymongoIdempotencyKey(context.idempotencyKey, request.refundId, operation, "refund") });
        return { providerReference: resourceOf(document, operation).id };
      } catch (error) {
        // PayMongo refused (a 4xx): it made no refund, and asking again would be refused again.
        throw (error instanceof PaymongoRejectedError && paymongoRefundRefusalOf(error)) || error;
      }
    },

    refundRefusal: paymongoRefundRefusal,

    checkAmount({ flow, amount, paymentMethodType, bankCode }) {
      if (flow === "checkout") checkoutMethodsAccepting(paymentMethods, amount.amountMinor);
      else if (flow === "hosted_payment") assertPaymongoAmount("link", "link", amount.amountMinor);
      else assertPaymongoAmount("payment_intent", paymentMethodType ?? "", amount.amountMinor, bankCode !== undefined ? { bankCode } : {});
    },

    decidePayment() {
      throw new AppError("INVALID_STATE_TRANSITION", "Payer actions are simulated only in the sandbox.");
    },

    async retrieveCheckoutSessionById(id) {
      const operation = "retrieveCheckoutSession";
      return checkoutSessionStateOf(resourceOf(await client.get(pathOf(PAYMONGO_PATHS.checkoutSessions, id), operation), operation));
    },

    async retrievePaymentIntentById(id) {
      const operation = "retrievePaymentIntent";
      return paymentIntentStateOf(resourceOf(await client.get(pathOf(PAYMONGO_PATHS.paymentIntents, id), operation), operation));
    },

    async listRefundsOfPayment(paymentId) {
      // The payment_id filter is UNCONF: should PayMongo ignore it, the list is filtered here too.
      const document = await client.get(PAYMONGO_PATHS.refunds, "listRefunds", { payment_id: paymentId });
      return resourcesOf(document)
        .map(refundStateOf)
        .filter((refund) => refund.paymentId === undefined || refund.paymentId === paymentId);
    },

    async retrieveRefundById(id) {
      const operation = "retrieveRefund";
      return refundStateOf(resourceOf(await client.get(pathOf(PAYMONGO_PATHS.refunds, id), operation), operation));
    },

    retrieveLinkById: retrieveLink,

    // The link names its payments: no second read is needed for the paid one's id, method and time.
    hostedPaymentState: async (providerReference) => paymongoHostedPaymentState(await retrieveLink(providerReference)),

    // Read first: a link paid meanwhile is answered paid, not archived (its payment must not be hidden).
    async closeHostedPayment(providerReference) {
      const state = paymongoHostedPaymentState(await retrieveLink(providerReference));
      if (state.status === "paid") return state;
      await setLinkArchived(providerReference, true);
      return { ...state, status: "expired" };
    },

    // An archived link is unarchived as it was: the same page, URL and reference number.
    async reopenHostedPayment(_request, providerReference) {
      const link = await setLinkArchived(providerReference, false);
      return { providerReference: link.id, referenceNumber: link.referenceNumber, url: link.checkoutUrl, pageToken: "" };
    },

    // PayMongo documents no metadata on customers, so none is sent. The Idempotency-Key comes from
    // the Bayad customer's id (this call carries no request key): asked again, PayMongo answers
    // with the same customer; past 24 h a lost answer leaves at most an unused customer.
    async createCustomer(input) {
      const operation = "createCustomer";
      const [first, ...rest] = (input.name ?? "").trim().split(/\s+/).filter((part) => part !== "");
      // PayMongo wants both names; without a name the e-mail's local part stands in.
      const firstName = first ?? input.email.split("@")[0] ?? input.email;
      const document = await client.post(PAYMONGO_PATHS.customers, operation, {
        first_name: firstName,
        last_name: rest.length > 0 ? rest.join(" ") : firstName,
        email: input.email,
        default_device: "email",
      }, { idempotencyKey: paymongoIdempotencyKey(input.customerId, input.customerId, operation, "customer") });
      return { providerReference: resourceOf(document, operation).id };
    },
  };
}
