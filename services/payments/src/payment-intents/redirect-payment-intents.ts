import { AppError, CURRENCY, newId } from "@bayad/kit";
import { routeNewPayment } from "../routing/failover.js";
import { hostedPageResource, intentMethodProblems, offersIntentMethod, type IntentMethodOption, type PayerAction } from "@bayad/provider";
import { paidByRedirect, type PaymentIntentRecord } from "./payment-intent.js";
import { createAtRoute, insertOnce, newRecord, settleByPayer, type CreatePaymentIntentInput, type MutatingCaller, type PaymentIntentsDeps } from "./payment-intents.js";

export interface CreateRedirectPaymentIntentInput extends CreatePaymentIntentInput {
  /** As asked; checked here (the type may be any text a caller sent). */
  paymentMethod: { type: string; bankCode?: string };
  /** "" when the request named none. */
  returnUrl: string;
}

const MAX_RETURN_URL = 2048;

/** An absolute http(s) URL of at most 2048 characters, as the gateway's contract says. */
function returnUrlProblems(returnUrl: string): string[] {
  if (returnUrl === "") return ["returnUrl: is required for payment methods paid by redirect"];
  if (returnUrl.length > MAX_RETURN_URL) return [`returnUrl: must be at most ${MAX_RETURN_URL} characters`];
  try {
    const url = new URL(returnUrl);
    if (url.protocol === "http:" || url.protocol === "https:") return [];
  } catch {
    // reported below
  }
  return ["returnUrl: must be an absolute http or https URL"];
}

/**
 * Creates an e-wallet or online-banking payment intent: checked before anything is asked or
 * written (the method, its bank, returnUrl, and that the environment's provider offers it), then
 * made at the provider at once with the payer's method attached, and written
 * `awaiting_next_action` (public `requires_action`) with the page the payer is sent to. A
 * provider that declines the method at once leaves it `failed`. A repeated key returns the intent
 * it created.
 */
export async function createRedirectPaymentIntent(deps: PaymentIntentsDeps, caller: MutatingCaller, input: CreateRedirectPaymentIntentInput) {
  const problems = [...intentMethodProblems(input.paymentMethod), ...returnUrlProblems(input.returnUrl)];
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  const method = input.paymentMethod as IntentMethodOption;
  const paymentIntentId = newId("pi");
  const amount = { amountMinor: input.amountMinor, currency: CURRENCY } as const;
  const route = await routeNewPayment(deps.providers, deps.routing, caller, {
    routingKey: paymentIntentId,
    flow: "payment_intent",
    method: method.type,
    ...(method.bankCode !== undefined ? { bankCode: method.bankCode } : {}),
    amount,
  });
  // Routed accounts offer it (routing checked); the environment's default provider is checked here.
  if (!route.candidates.some((stop) => offersIntentMethod(stop.provider.paymentIntentMethods, method))) {
    const named = method.bankCode ? `${method.type} (${method.bankCode})` : method.type;
    throw new AppError("PAYMENT_METHOD_NOT_OFFERED", `Payment intents cannot be paid with ${named} in ${caller.environment} mode; see the capabilities' paymentIntentMethods.`, {
      details: [`paymentMethod: ${named} is not offered here`],
    });
  }

  return insertOnce(deps, caller, "createPaymentIntent", async () => {
    const base = newRecord(deps, caller, input, undefined, paymentIntentId);
    const { made: started, taken } = await createAtRoute(deps, caller, "createPaymentIntent", route, (provider) =>
      provider.createRedirectPaymentIntent(
        {
          paymentIntentId: base._id,
          referenceId: input.referenceId,
          amount: { amountMinor: input.amountMinor, currency: CURRENCY },
          method,
          returnUrl: input.returnUrl,
        },
        { environment: caller.environment, idempotencyKey: caller.idempotencyKey },
      ),
    );
    const record: PaymentIntentRecord = {
      ...base,
      ...taken,
      status: started.outcome === "declined" ? "failed" : "awaiting_next_action",
      paymentMethod: method.type,
      ...(method.bankCode !== undefined ? { bankCode: method.bankCode } : {}),
      returnUrl: input.returnUrl,
      providerReference: started.providerReference,
      ...(started.redirectUrl !== "" ? { redirectUrl: started.redirectUrl } : {}),
      ...(started.pageToken !== "" ? { pageToken: started.pageToken } : {}),
    };
    return record;
  });
}

/** The sandbox's redirect page of an intent: a test-mode redirect intent reached with its page token. */
export async function getHostedPaymentIntent(deps: PaymentIntentsDeps, paymentIntentId: string, pageToken: string): Promise<PaymentIntentRecord> {
  const record = hostedPageResource(await deps.repository.findByIdForPage(paymentIntentId), pageToken);
  // A QR Ph intent's token opens its image, not a page to pay on.
  if (!paidByRedirect(record)) throw new AppError("RESOURCE_NOT_FOUND", "No such payment page.");
  return record;
}

/**
 * The payer pays or gives up on the sandbox's redirect page: the intent is settled as the
 * provider decides (the decline scenario applies to pay), then the payer goes back to returnUrl.
 */
export async function submitHostedPaymentIntent(deps: PaymentIntentsDeps, paymentIntentId: string, pageToken: string, action: PayerAction) {
  const record = await getHostedPaymentIntent(deps, paymentIntentId, pageToken);
  return settleByPayer(deps, record, action);
}
