import type { Client } from "@connectrpc/connect";
import { PaymentMethodSchema, SimulatedOutcome, type Capabilities, type PaymentsService } from "@bayad/proto";
import { enumToText, textToEnum } from "@bayad/kit";
import {
  checkoutToJson,
  customerToJson,
  paymentIntentToJson,
  qrPhPaymentIntentToJson,
  refundToJson,
  type PublicUrl,
} from "@bayad/public-resources";
import type { OperationHandler, OperationHandlers } from "./operation.js";
import { moneyOf } from "./json.js";

/**
 * The payments service's capabilities, with the resources the gateway routes to other services
 * and, when it routes to the webhooks service, the event types an endpoint can subscribe to.
 */
function capabilitiesToJson(
  capabilities: Capabilities | undefined,
  otherResources: readonly string[],
  webhookEventTypes: readonly string[] | undefined,
) {
  return {
    currency: capabilities?.currency ?? "PHP",
    paymentMethods: capabilities?.paymentMethods ?? [],
    paymentIntentMethods: (capabilities?.paymentIntentMethods ?? []).map((option) => ({
      type: enumToText(PaymentMethodSchema, option.type),
      ...(option.bankCode ? { bankCode: option.bankCode } : {}),
    })),
    resources: [...(capabilities?.resources ?? []), ...otherResources],
    ...(webhookEventTypes ? { webhookEventTypes: [...webhookEventTypes] } : {}),
  };
}

/**
 * Payments operations ⇄ PaymentsService rpcs. `otherResources` is what capabilities' `resources`
 * adds for the other services the gateway routes to (see routed-resources.ts); `webhookEventTypes`
 * is listed in capabilities only when the gateway routes to the webhooks service.
 */
export function paymentsRoutes(
  payments: Client<typeof PaymentsService>,
  publicUrl: PublicUrl,
  otherResources: readonly string[],
  webhookEventTypes?: readonly string[],
): OperationHandlers {
  const simulateCheckout =
    (outcome: SimulatedOutcome): OperationHandler<"payCheckoutTestHelper" | "failCheckoutTestHelper" | "expireCheckoutTestHelper"> =>
    async ({ params }, { call }) => {
      const response = await payments.simulateCheckoutOutcome({ checkoutId: params.checkoutId, outcome }, call);
      return { status: 200, data: checkoutToJson(response.checkout, publicUrl) };
    };

  const simulatePaymentIntent =
    (outcome: SimulatedOutcome): OperationHandler<"succeedPaymentIntentTestHelper" | "failPaymentIntentTestHelper"> =>
    async ({ params }, { call }) => {
      const response = await payments.simulatePaymentIntentOutcome({ paymentIntentId: params.paymentIntentId, outcome }, call);
      return { status: 200, data: paymentIntentToJson(response.paymentIntent, publicUrl) };
    };

  const simulateRefund = (outcome: SimulatedOutcome): OperationHandler<"succeedRefundTestHelper" | "failRefundTestHelper"> =>
    async ({ params }, { call }) => {
      const response = await payments.simulateRefundOutcome({ refundId: params.refundId, outcome }, call);
      return { status: 200, data: refundToJson(response.refund) };
    };

  return {
    async getPaymentCapabilities(_input, { call }) {
      const response = await payments.getCapabilities({}, call);
      return { status: 200, data: capabilitiesToJson(response.capabilities, otherResources, webhookEventTypes) };
    },

    async createCustomer({ body }, { call }) {
      const response = await payments.createCustomer(
        {
          customerReference: body.customerReference,
          email: body.email,
          name: body.name ?? "",
          phone: body.phone ?? "",
          locale: body.locale ?? "",
        },
        call,
      );
      return { status: 201, data: customerToJson(response.customer) };
    },

    async getCustomer({ params }, { call }) {
      const response = await payments.getCustomer({ customerId: params.customerId }, call);
      return { status: 200, data: customerToJson(response.customer) };
    },

    async createCheckout({ body }, { call }) {
      const response = await payments.createCheckout(
        {
          referenceId: body.referenceId,
          amount: moneyOf(body.amount),
          successUrl: body.successUrl,
          cancelUrl: body.cancelUrl,
          metadata: body.metadata ?? {},
        },
        call,
      );
      if (response.providerPending) {
        return { status: 202, data: { status: "pending", resourceId: response.checkout?.checkoutId ?? "" } };
      }
      return { status: 201, data: checkoutToJson(response.checkout, publicUrl) };
    },

    async getCheckout({ params }, { call }) {
      const response = await payments.getCheckout({ checkoutId: params.checkoutId }, call);
      return { status: 200, data: checkoutToJson(response.checkout, publicUrl) };
    },

    async getCheckoutByReference({ params }, { call }) {
      const response = await payments.getCheckoutByReference({ referenceId: params.referenceId }, call);
      return { status: 200, data: checkoutToJson(response.checkout, publicUrl) };
    },

    async cancelCheckout({ params }, { call }) {
      const response = await payments.cancelCheckout({ checkoutId: params.checkoutId }, call);
      return { status: 200, data: checkoutToJson(response.checkout, publicUrl) };
    },

    payCheckoutTestHelper: simulateCheckout(SimulatedOutcome.SUCCEED),
    failCheckoutTestHelper: simulateCheckout(SimulatedOutcome.FAIL),
    expireCheckoutTestHelper: simulateCheckout(SimulatedOutcome.EXPIRE),

    async createPaymentIntent({ body }, { call }) {
      const method = body.paymentMethod;
      const response = await payments.createPaymentIntent(
        {
          referenceId: body.referenceId,
          amount: moneyOf(body.amount),
          ...(method ? { paymentMethod: textToEnum(PaymentMethodSchema, method.type), bankCode: method.bankCode ?? "" } : {}),
          returnUrl: body.returnUrl ?? "",
        },
        call,
      );
      return { status: 201, data: paymentIntentToJson(response.paymentIntent, publicUrl) };
    },

    async createQrPhPaymentIntent({ body }, { call }) {
      const response = await payments.createQrPhPaymentIntent(
        {
          referenceId: body.referenceId,
          amount: moneyOf(body.amount),
          description: body.description ?? "",
          expirySeconds: body.expirySeconds,
        },
        call,
      );
      return { status: 201, data: qrPhPaymentIntentToJson(response.paymentIntent, publicUrl) };
    },

    async getPaymentIntent({ params }, { call }) {
      const response = await payments.getPaymentIntent({ paymentIntentId: params.paymentIntentId }, call);
      return { status: 200, data: paymentIntentToJson(response.paymentIntent, publicUrl) };
    },

    async confirmPaymentIntent({ params }, { call }) {
      const response = await payments.confirmPaymentIntent({ paymentIntentId: params.paymentIntentId }, call);
      return { status: 200, data: paymentIntentToJson(response.paymentIntent, publicUrl) };
    },

    async cancelPaymentIntent({ params }, { call }) {
      const response = await payments.cancelPaymentIntent({ paymentIntentId: params.paymentIntentId }, call);
      return { status: 200, data: paymentIntentToJson(response.paymentIntent, publicUrl) };
    },

    async createRefund({ body }, { call }) {
      const response = await payments.createRefund(
        { paymentId: body.paymentId, amount: moneyOf(body.amount), reason: body.reason ?? "" },
        call,
      );
      return { status: 201, data: refundToJson(response.refund) };
    },

    async getRefund({ params }, { call }) {
      const response = await payments.getRefund({ refundId: params.refundId }, call);
      return { status: 200, data: refundToJson(response.refund) };
    },

    succeedRefundTestHelper: simulateRefund(SimulatedOutcome.SUCCEED),
    failRefundTestHelper: simulateRefund(SimulatedOutcome.FAIL),
    succeedPaymentIntentTestHelper: simulatePaymentIntent(SimulatedOutcome.SUCCEED),
    failPaymentIntentTestHelper: simulatePaymentIntent(SimulatedOutcome.FAIL),
  };
}
