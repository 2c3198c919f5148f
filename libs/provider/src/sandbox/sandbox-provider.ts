import { createHmac } from "node:crypto";
import { pause, type Money } from "@bayad/kit";
import { buildQrPhPayload } from "../qrph/qrph-payload.js";
import { ALL_INTENT_METHOD_OPTIONS } from "../payment-intent-methods.js";
import {
  ProviderNoAnswerError,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type PaymentProvider,
  type PayerAction,
} from "../port.js";
import { scenarioOf } from "./scenarios.js";
import { sandboxFeeMinor } from "./fees.js";

const REFERENCE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export interface SandboxProviderOptions {
  /** Keys the page tokens; replicas of one deployment share it. */
  secret: string;
  /** How late the provider answers in the delay scenario. */
  delayMs: number;
  /** How long, in the silence scenario, the provider also ignores look-ups of the session. */
  silenceMs: number;
}

/**
 * The sandbox provider, the default for test credentials. Deterministic: every answer is a
 * function of its request, so a reconciliation look-up finds exactly what the lost create made,
 * on any replica. Hosted pages for its checkout sessions, QR codes and the redirect pages of
 * e-wallet and online-banking intents are served by the gateway. It offers every intent method.
 */
export function createSandboxProvider(options: SandboxProviderOptions): PaymentProvider {
  const tokenFor = (id: string) => createHmac("sha256", options.secret).update(id).digest("base64url").slice(0, 32);
  const referenceFor = (kind: string, id: string) => `${kind}_sandbox_${tokenFor(`${kind}:${id}`).slice(0, 20)}`;
  // Seven characters from an alphabet without look-alikes (no 0/O, 1/I/L), like a receipt's.
  const referenceNumberFor = (id: string) =>
    [...createHmac("sha256", options.secret).update(`ref:${id}`).digest()]
      .slice(0, 7)
      .map((byte) => REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length])
      .join("");
  // Silence also hides the session from look-ups for a while, so callers see "unknown" first.
  const silentUntil = new Map<string, number>();

  const sessionOf = (request: CheckoutSessionRequest): CheckoutSession => {
    const pageToken = tokenFor(request.checkoutId);
    return {
      providerReference: referenceFor("cs", request.checkoutId),
      checkoutUrl: `/sandbox/checkouts/${request.checkoutId}?token=${pageToken}`,
      pageToken,
    };
  };

  return {
    name: "sandbox",
    paymentMethods: ["card", "qrph"],
    paymentIntentMethods: ALL_INTENT_METHOD_OPTIONS,

    async createCheckoutSession(request) {
      const scenario = scenarioOf(request.amount, request.metadata);
      if (scenario === "silence") {
        silentUntil.set(request.checkoutId, Date.now() + options.silenceMs);
        throw new ProviderNoAnswerError("createCheckoutSession");
      }
      if (scenario === "delay") await pause(options.delayMs);
      return sessionOf(request);
    },

    async retrieveCheckoutSession(request) {
      const until = silentUntil.get(request.checkoutId);
      if (until !== undefined) {
        if (Date.now() < until) throw new ProviderNoAnswerError("retrieveCheckoutSession");
        silentUntil.delete(request.checkoutId);
      }
      return sessionOf(request);
    },

    async confirmPaymentIntent(request) {
      return {
        providerReference: referenceFor("pi", request.paymentIntentId),
        outcome: scenarioOf(request.amount) === "decline" ? "declined" : "processing",
      };
    },

    // The payer's page stands in for the wallet's or bank's; its pay button meets the decline
    // scenario there (decidePayment), as a real payer's wallet would decline after the redirect.
    async createRedirectPaymentIntent(request) {
      const pageToken = tokenFor(request.paymentIntentId);
      return {
        providerReference: referenceFor("pi", request.paymentIntentId),
        outcome: "awaiting_payer",
        redirectUrl: `/sandbox/intents/${request.paymentIntentId}?token=${pageToken}`,
        pageToken,
      };
    },

    async createQrPh(request) {
      const pageToken = tokenFor(request.paymentIntentId);
      return {
        providerReference: referenceFor("qr", request.paymentIntentId),
        payload: buildQrPhPayload({
          merchantName: "BAYAD SANDBOX MERCHANT",
          merchantCity: "MANILA",
          merchantCategoryCode: "5999",
          acquirerId: "BAYDPHM1XXX",
          merchantId: "SANDBOX0000001",
          amountMinor: request.amount.amountMinor,
          referenceId: request.referenceId,
          paymentIntentId: request.paymentIntentId,
        }),
        imageUrl: `/sandbox/qrph/${request.paymentIntentId}.png?token=${pageToken}`,
        pageToken,
      };
    },

    async createHostedPayment(request) {
      const pageToken = tokenFor(request.resourceId);
      const path = request.kind === "invoice" ? "invoices" : "payment-links";
      return {
        providerReference: referenceFor(request.kind === "invoice" ? "in" : "pl", request.resourceId),
        referenceNumber: referenceNumberFor(request.resourceId),
        url: `/sandbox/${path}/${request.resourceId}?token=${pageToken}`,
        pageToken,
      };
    },

    async createRefund(request) {
      return { providerReference: referenceFor("re", request.refundId) };
    },

    payerPaymentFee(amount, method) {
      return sandboxFeeMinor(amount.amountMinor, method);
    },

    decidePayment(amount: Money, metadata: Record<string, string>, action: PayerAction) {
      if (action === "fail") return "failed";
      return scenarioOf(amount, metadata) === "decline" ? "failed" : "paid";
    },
  };
}
