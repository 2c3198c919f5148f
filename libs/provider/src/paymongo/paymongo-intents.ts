import { AppError, CURRENCY, type Money } from "@bayad/kit";
import type {
  PaymentIntentConfirmation,
  PaymentIntentConfirmationRequest,
  QrPhCode,
  QrPhRequest,
  RedirectPaymentIntent,
  RedirectPaymentIntentRequest,
} from "../port.js";
import { paymongoIntentMethodOf, type PaymongoIntentMethod } from "./paymongo-intent-methods.js";
import type { PaymongoClient } from "./paymongo-client.js";
import { pathOf, PAYMONGO_PATHS } from "./paymongo-endpoints.js";
import { assertPaymongoAmount } from "./paymongo-amount-limits.js";
import { providerUnavailable } from "../provider-errors.js";
import { PaymongoRejectedError } from "./paymongo-errors.js";
import { paymentIntentStateOf, paymongoText, resourceOf, type PaymongoResource } from "./paymongo-resources.js";
import { readQrDataUrl } from "./qr-data-url.js";

/**
 * PayMongo's three-step payment: a payment intent (with Bayad's metadata), a payment method, then
 * attach. Each step carries its own Idempotency-Key (`keyOf(step)`), so a step whose answer was
 * lost is sent again and PayMongo answers with what the first attempt made. Should every attempt
 * go unanswered, the intent is one nobody has a way to pay (its redirect URL or QR image never
 * reached a payer), so it moves no money: the payments service may answer
 * PAYMENT_OUTCOME_UNKNOWN and a retry makes a fresh intent.
 */

/** PayMongo's Idempotency-Key of one step of the operation (see paymongoIdempotencyKey). */
export type StepKey = (step: "payment_intent" | "payment_method" | "attach") => string;

// PI types whose attach hands back a page for the payer (next_action.redirect.url [O]) and that
// need nothing more than their type: the e-wallets. `dob` and `brankas` need a bank code, so a
// confirm that names no method cannot default to them. PI types, never Checkout Session names.
const REDIRECT_METHODS = ["gcash", "paymaya", "grab_pay", "shopeepay"];

// Attach errors that mean the payer's method was declined, not that the request was wrong.
const DECLINE_CODES = new Set([
  "generic_decline", "card_declined", "insufficient_funds", "fraudulent", "lost_card", "stolen_card", "card_expired",
  "cvc_invalid", "cvc_incorrect", "processor_declined", "processor_blocked", "blocked", "payment_failed", "do_not_honor",
]);

interface IntentDeps {
  client: PaymongoClient;
  paymentMethodTypes: readonly string[];
  returnUrl?: string;
}

async function createIntent(
  deps: IntentDeps,
  input: { amount: Money; methods: string[]; description: string; metadata: Record<string, string> },
  operation: string,
  keyOf: StepKey,
): Promise<PaymongoResource> {
  const attributes = {
    amount: input.amount.amountMinor,
    currency: CURRENCY,
    payment_method_allowed: input.methods,
    description: paymongoText(input.description),
    metadata: input.metadata,
  };
  return resourceOf(await deps.client.post(PAYMONGO_PATHS.paymentIntents, operation, attributes, { idempotencyKey: keyOf("payment_intent") }), operation);
}

async function createMethod(deps: IntentDeps, attributes: Record<string, unknown>, operation: string, keyOf: StepKey): Promise<string> {
  return resourceOf(await deps.client.post(PAYMONGO_PATHS.paymentMethods, operation, attributes, { idempotencyKey: keyOf("payment_method") }), operation).id;
}

async function attach(deps: IntentDeps, intentId: string, attributes: Record<string, unknown>, operation: string, keyOf: StepKey): Promise<PaymongoResource> {
  const path = pathOf(PAYMONGO_PATHS.paymentIntents, intentId, "attach");
  return resourceOf(await deps.client.post(path, operation, attributes, { idempotencyKey: keyOf("attach") }), operation);
}

/** The method a server-side confirm pays with: asked for, else the account's first redirect method. */
function methodFor(deps: IntentDeps, asked: string | undefined): string {
  const method = asked ?? deps.paymentMethodTypes.find((type) => REDIRECT_METHODS.includes(type));
  if (method === undefined || method === "card" || method === "qrph") {
    // Card details never pass through Bayad (PayMongo collects them on its checkout page), and QR Ph has its own call.
    throw new AppError("PROVIDER_REJECTED", "This PayMongo account has no method a server-side confirmation can use.", {
      details: [`paymentMethodType: ${method ?? "none"} cannot be confirmed server-side; one of ${REDIRECT_METHODS.join(", ")} is needed`],
    });
  }
  return method;
}

/** What attaching a redirect method gave: declined at once, or the page the payer pays on. */
type RedirectAttach = { providerReference: string; declined: true } | { providerReference: string; declined: false; redirectUrl?: string };

/**
 * Creates a PayMongo intent allowing `method` alone, its payment method (with the bank code for
 * banks), and attaches it with `returnUrl` (required for redirect methods [O]).
 */
async function startRedirect(
  deps: IntentDeps,
  input: { amount: Money; referenceId: string; method: PaymongoIntentMethod; returnUrl: string | undefined; metadata: Record<string, string> },
  operation: string,
  keyOf: StepKey,
): Promise<RedirectAttach> {
  const { method, metadata } = input;
  assertPaymongoAmount("payment_intent", method.type, input.amount.amountMinor, method.bankCode !== undefined ? { bankCode: method.bankCode } : {});
  const intent = await createIntent(deps, { amount: input.amount, methods: [method.type], description: input.referenceId, metadata }, operation, keyOf);
  const details = method.bankCode !== undefined ? { details: { bank_code: method.bankCode } } : {};
  const methodId = await createMethod(deps, { type: method.type, ...details, metadata }, operation, keyOf);
  let attached: PaymongoResource;
  try {
    attached = await attach(deps, intent.id, { payment_method: methodId, ...(input.returnUrl ? { return_url: input.returnUrl } : {}) }, operation, keyOf);
  } catch (error) {
    if (error instanceof PaymongoRejectedError && error.providerErrors.some((item) => DECLINE_CODES.has(item.code))) {
      return { providerReference: intent.id, declined: true };
    }
    throw error;
  }
  const state = paymentIntentStateOf(attached);
  // A failed attach sends the intent back to awaiting_payment_method with last_payment_error [O].
  if (state.status === "awaiting_payment_method" && state.lastPaymentError) return { providerReference: intent.id, declined: true };
  const redirectUrl = state.nextAction?.type === "redirect" ? state.nextAction.url : undefined;
  return { providerReference: intent.id, declined: false, ...(redirectUrl !== undefined ? { redirectUrl } : {}) };
}

export async function confirmWithPaymongo(
  deps: IntentDeps,
  request: PaymentIntentConfirmationRequest,
  metadata: Record<string, string>,
  keyOf: StepKey,
): Promise<PaymentIntentConfirmation> {
  const method = methodFor(deps, request.paymentMethodType);
  const started = await startRedirect(
    deps,
    { amount: request.amount, referenceId: request.referenceId, method: { type: method as PaymongoIntentMethod["type"] }, returnUrl: request.returnUrl ?? deps.returnUrl, metadata },
    "confirmPaymentIntent",
    keyOf,
  );
  if (started.declined) return { providerReference: started.providerReference, outcome: "declined" };
  return { providerReference: started.providerReference, outcome: "processing", ...(started.redirectUrl !== undefined ? { nextActionUrl: started.redirectUrl } : {}) };
}

/**
 * A payment intent paid by redirect (an e-wallet or a bank): PayMongo's amount limit for the
 * method is checked before anything is sent, and the payer's page is handed back. No redirect
 * URL in PayMongo's answer means nobody can pay this intent: a retry may safely make another.
 */
export async function createRedirectWithPaymongo(
  deps: IntentDeps,
  request: RedirectPaymentIntentRequest,
  metadata: Record<string, string>,
  keyOf: StepKey,
): Promise<RedirectPaymentIntent> {
  const method = paymongoIntentMethodOf(request.method);
  const started = await startRedirect(
    deps,
    { amount: request.amount, referenceId: request.referenceId, method, returnUrl: request.returnUrl, metadata },
    "createRedirectPaymentIntent",
    keyOf,
  );
  if (started.declined) return { providerReference: started.providerReference, outcome: "declined", redirectUrl: "", pageToken: "" };
  if (started.redirectUrl === undefined) throw providerUnavailable("PayMongo answered the attach without next_action.redirect.url.");
  return { providerReference: started.providerReference, outcome: "awaiting_payer", redirectUrl: started.redirectUrl, pageToken: "" };
}

export async function createQrPhWithPaymongo(deps: IntentDeps, request: QrPhRequest, metadata: Record<string, string>, keyOf: StepKey): Promise<QrPhCode> {
  const operation = "createQrPh";
  assertPaymongoAmount("payment_intent", "qrph", request.amount.amountMinor);
  const description = paymongoText(request.description, request.referenceId);
  const intent = await createIntent(deps, { amount: request.amount, methods: ["qrph"], description, metadata }, operation, keyOf);
  const methodId = await createMethod(
    deps,
    { type: "qrph", metadata, ...(request.expirySeconds !== undefined ? { expiry_seconds: request.expirySeconds } : {}) },
    operation,
    keyOf,
  );
  const attached = await attach(deps, intent.id, { payment_method: methodId }, operation, keyOf);
  // next_action.code.image_url [O] (other spellings read too: see nextActionOf).
  const nextAction = paymentIntentStateOf(attached).nextAction;
  const image = nextAction?.type === "qr" ? nextAction.imageUrl : undefined;
  // Nobody has this code, so nobody can pay it: a retry may safely make another.
  if (image === undefined) throw providerUnavailable("PayMongo answered the QR Ph attach without a QR image.");
  const qr = readQrDataUrl(image);
  return {
    providerReference: intent.id,
    payload: qr.payload,
    imageUrl: qr.dataUrl,
    pageToken: "",
    ...(qr.pngBase64 !== undefined ? { imagePngBase64: qr.pngBase64 } : {}),
  };
}
