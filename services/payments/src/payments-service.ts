import type { ServiceImpl } from "@connectrpc/connect";
import { PaymentMethod, SimulatedOutcome, type PaymentsService } from "@bayad/proto";
import { AppError, callerOf, mutatingCallerOf } from "@bayad/kit";
import { chooseProvider, payerActionOf } from "@bayad/provider";
import { describeCapabilities } from "./capabilities.js";
import { createCustomer, getCustomer, type CustomersDeps } from "./customers/customers.js";
import { customerToProto } from "./customers/customer.js";
import {
  cancelCheckout,
  createCheckout,
  getCheckout,
  getCheckoutByReference,
  getHostedCheckout,
  simulateCheckoutOutcome,
  submitHostedCheckout,
  type CheckoutsDeps,
} from "./checkouts/checkouts.js";
import { checkoutToProto } from "./checkouts/checkout.js";
import {
  cancelPaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  createQrPhPaymentIntent,
  getPaymentIntent,
  getQrPhImage,
  simulatePaymentIntentOutcome,
  type PaymentIntentsDeps,
} from "./payment-intents/payment-intents.js";
import { paymentIntentToProto, redirectMethodOf } from "./payment-intents/payment-intent.js";
import { createRedirectPaymentIntent, getHostedPaymentIntent, submitHostedPaymentIntent } from "./payment-intents/redirect-payment-intents.js";
import { createRefund, getRefund, simulateRefundOutcome, type RefundsDeps } from "./refunds/refunds.js";
import { refundToProto } from "./refunds/refund.js";
import { receiveProviderEvent, type ReceiveDeps } from "./provider-events/receive-provider-event.js";

export interface PaymentsServiceDeps {
  customers: CustomersDeps;
  checkouts: CheckoutsDeps;
  paymentIntents: PaymentIntentsDeps;
  refunds: RefundsDeps;
  providerEvents: ReceiveDeps;
}

/** Each item once, in the order first met. */
function unionOf<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(keyOf(item)) && seen.add(keyOf(item)));
}

/**
 * The PaymentsService rpc handlers: read the caller, call the domain, map to the response.
 * Methods not listed here answer UNIMPLEMENTED until their resource is served.
 */
export function createPaymentsService(deps: PaymentsServiceDeps): Partial<ServiceImpl<typeof PaymentsService>> {
  const { checkouts, paymentIntents, refunds } = deps;
  return {
    async receiveProviderEvent(request) {
      return receiveProviderEvent(deps.providerEvents, {
        provider: request.provider,
        providerAccountId: request.providerAccountId,
        rawBody: request.rawBody,
        signature: request.signature,
        callbackTokens: request.callbackTokens,
      });
    },

    async getCapabilities(_request, context) {
      // With provider accounts: the union of what the routed accounts offer.
      const routed = await checkouts.routing?.routedAccounts(callerOf(context));
      if (routed) {
        return {
          capabilities: describeCapabilities(
            unionOf(routed.flatMap(({ provider }) => provider.paymentMethods), (method) => method),
            unionOf(routed.flatMap(({ provider }) => provider.paymentIntentMethods), (option) => `${option.type}:${option.bankCode ?? ""}`),
          ),
        };
      }
      // The methods of the provider a new payment would go to (none in live mode without an account).
      const choice = await chooseProvider(checkouts.providers, callerOf(context)).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "PROVIDER_NOT_CONFIGURED") return undefined;
        throw error;
      });
      return { capabilities: describeCapabilities(choice?.provider.paymentMethods ?? [], choice?.provider.paymentIntentMethods ?? []) };
    },

    async createCustomer(request, context) {
      const customer = await createCustomer(deps.customers, mutatingCallerOf(context), {
        customerReference: request.customerReference,
        email: request.email,
        name: request.name || undefined,
        phone: request.phone || undefined,
        locale: request.locale || undefined,
      });
      return { customer: customerToProto(customer) };
    },

    async getCustomer(request, context) {
      return { customer: customerToProto(await getCustomer(deps.customers, callerOf(context), request.customerId)) };
    },

    async createCheckout(request, context) {
      const created = await createCheckout(checkouts, mutatingCallerOf(context), {
        referenceId: request.referenceId,
        amountMinor: Number(request.amount?.amountMinor ?? 0n),
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        metadata: request.metadata,
      });
      return { checkout: checkoutToProto(created.checkout), providerPending: created.providerPending };
    },

    async getCheckout(request, context) {
      return { checkout: checkoutToProto(await getCheckout(checkouts, callerOf(context), request.checkoutId)) };
    },

    async getCheckoutByReference(request, context) {
      return { checkout: checkoutToProto(await getCheckoutByReference(checkouts, callerOf(context), request.referenceId)) };
    },

    async cancelCheckout(request, context) {
      return { checkout: checkoutToProto(await cancelCheckout(checkouts, mutatingCallerOf(context), request.checkoutId)) };
    },

    async simulateCheckoutOutcome(request, context) {
      const outcome = request.outcome === SimulatedOutcome.EXPIRE ? "expire" : payerActionOf(request.outcome);
      const checkout = await simulateCheckoutOutcome(checkouts, mutatingCallerOf(context), request.checkoutId, outcome);
      return { checkout: checkoutToProto(checkout) };
    },

    async getHostedCheckout(request) {
      const checkout = await getHostedCheckout(checkouts, request.checkoutId, request.pageToken);
      return { checkout: checkoutToProto(checkout), environment: checkout.environment };
    },

    async submitHostedCheckout(request) {
      const action = payerActionOf(request.outcome);
      return { checkout: checkoutToProto(await submitHostedCheckout(checkouts, request.checkoutId, request.pageToken, action)) };
    },

    async createPaymentIntent(request, context) {
      const caller = mutatingCallerOf(context);
      const input = { referenceId: request.referenceId, amountMinor: Number(request.amount?.amountMinor ?? 0n) };
      // No method named: a card intent, as before redirect methods existed.
      if (request.paymentMethod === PaymentMethod.UNSPECIFIED || request.paymentMethod === PaymentMethod.CARD) {
        return { paymentIntent: paymentIntentToProto(await createPaymentIntent(paymentIntents, caller, input)) };
      }
      const type = redirectMethodOf(request.paymentMethod);
      if (type === undefined) {
        throw new AppError("VALIDATION_FAILED", undefined, { details: ["paymentMethod.type: QR Ph intents are made with createQrPhPaymentIntent"] });
      }
      const intent = await createRedirectPaymentIntent(paymentIntents, caller, {
        ...input,
        paymentMethod: { type, ...(request.bankCode !== "" ? { bankCode: request.bankCode } : {}) },
        returnUrl: request.returnUrl,
      });
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async createQrPhPaymentIntent(request, context) {
      const intent = await createQrPhPaymentIntent(paymentIntents, mutatingCallerOf(context), {
        referenceId: request.referenceId,
        amountMinor: Number(request.amount?.amountMinor ?? 0n),
        description: request.description,
        expirySeconds: request.expirySeconds,
      });
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async getPaymentIntent(request, context) {
      const intent = await getPaymentIntent(paymentIntents, callerOf(context), request.paymentIntentId);
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async confirmPaymentIntent(request, context) {
      const intent = await confirmPaymentIntent(paymentIntents, mutatingCallerOf(context), request.paymentIntentId);
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async cancelPaymentIntent(request, context) {
      const intent = await cancelPaymentIntent(paymentIntents, mutatingCallerOf(context), request.paymentIntentId);
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async createRefund(request, context) {
      const refund = await createRefund(refunds, mutatingCallerOf(context), {
        paymentId: request.paymentId,
        amountMinor: Number(request.amount?.amountMinor ?? 0n),
        reason: request.reason,
      });
      return { refund: refundToProto(refund) };
    },

    async getRefund(request, context) {
      return { refund: refundToProto(await getRefund(refunds, callerOf(context), request.refundId)) };
    },

    async simulateRefundOutcome(request, context) {
      const action = payerActionOf(request.outcome) === "pay" ? "succeed" : "fail";
      return { refund: refundToProto(await simulateRefundOutcome(refunds, mutatingCallerOf(context), request.refundId, action)) };
    },

    async simulatePaymentIntentOutcome(request, context) {
      const action = payerActionOf(request.outcome);
      const intent = await simulatePaymentIntentOutcome(paymentIntents, mutatingCallerOf(context), request.paymentIntentId, action);
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async getHostedPaymentIntent(request) {
      return { paymentIntent: paymentIntentToProto(await getHostedPaymentIntent(paymentIntents, request.paymentIntentId, request.pageToken)) };
    },

    async submitHostedPaymentIntent(request) {
      const action = payerActionOf(request.outcome);
      const intent = await submitHostedPaymentIntent(paymentIntents, request.paymentIntentId, request.pageToken, action);
      return { paymentIntent: paymentIntentToProto(intent) };
    },

    async getQrPhImage(request) {
      return getQrPhImage(paymentIntents, request.paymentIntentId, request.pageToken);
    },
  };
}
