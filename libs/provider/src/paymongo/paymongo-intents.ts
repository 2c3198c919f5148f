import { AppError, CURRENCY, type Money } from "@bayad/kit";
import type { PaymentIntentConfirmation, PaymentIntentConfirmationRequest, QrPhCode, QrPhRequest } from "../port.js";
import type { PaymongoClient } from "./paymongo-client.js";
import { pathOf, PAYMONGO_PATHS } from "./paymongo-endpoints.js";
import { assertPaymongoAmount } from "./paymongo-amount-limits.js";
import { PaymongoRejectedError, providerUnavailable } from "./paymongo-errors.js";
import { objectAt, paymentIntentStateOf, paymongoText, resourceOf, textAt, type PaymongoResource } from "./paymongo-resources.js";
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

// Methods whose attach hands back a page for the payer ([3P]: next_action.redirect.url).
const REDIRECT_METHODS = ["gcash", "paymaya", "grab_pay", "shopee_pay", "billease", "dob", "brankas_bdo", "brankas_landbank", "brankas_metrobank"];

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

export async function confirmWithPaymongo(
  deps: IntentDeps,
  request: PaymentIntentConfirmationRequest,
  metadata: Record<string, string>,
  keyOf: StepKey,
): Promise<PaymentIntentConfirmation> {
  const operation = "confirmPaymentIntent";
  const method = methodFor(deps, request.paymentMethodType);
  assertPaymongoAmount("payment_intent", method, request.amount.amountMinor);
  const intent = await createIntent(deps, { amount: request.amount, methods: [method], description: request.referenceId, metadata }, operation, keyOf);
  const methodId = await createMethod(deps, { type: method, metadata }, operation, keyOf);
  const returnUrl = request.returnUrl ?? deps.returnUrl;
  let attached: PaymongoResource;
  try {
    attached = await attach(deps, intent.id, { payment_method: methodId, ...(returnUrl ? { return_url: returnUrl } : {}) }, operation, keyOf);
  } catch (error) {
    if (error instanceof PaymongoRejectedError && error.providerErrors.some((item) => DECLINE_CODES.has(item.code))) {
      return { providerReference: intent.id, outcome: "declined" };
    }
    throw error;
  }
  const state = paymentIntentStateOf(attached);
  // A failed attach sends the intent back to awaiting_payment_method with last_payment_error [O].
  if (state.status === "awaiting_payment_method" && state.lastPaymentError) return { providerReference: intent.id, outcome: "declined" };
  const nextActionUrl = textAt(objectAt(attached.attributes, "next_action.redirect") ?? {}, "url");
  return { providerReference: intent.id, outcome: "processing", ...(nextActionUrl !== undefined ? { nextActionUrl } : {}) };
}

/** next_action.code.image_url [O]; other spellings seen in third-party code are read as well. */
function qrImageOf(attached: PaymongoResource): string | undefined {
  const nextAction = objectAt(attached.attributes, "next_action") ?? {};
  return (
    textAt(objectAt(nextAction, "code") ?? {}, "image_url") ??
    textAt(objectAt(nextAction, "qr_code") ?? {}, "image_url") ??
    textAt(nextAction, "image_url")
  );
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
  const image = qrImageOf(attached);
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
