import type { Client } from "@connectrpc/connect";
import { SimulatedOutcome, type Capabilities, type Checkout, type Customer, type PaymentsService } from "@bayad/proto";
import { CheckoutStatusSchema } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import type { OperationHandlers } from "./operation.js";

/** Turns a path the provider returned (the sandbox's hosted pages) into an absolute URL. */
export type PublicUrl = (pathOrUrl: string) => string;

function capabilitiesToJson(capabilities: Capabilities | undefined) {
  return {
    currency: capabilities?.currency ?? "PHP",
    paymentMethods: capabilities?.paymentMethods ?? [],
    resources: capabilities?.resources ?? [],
  };
}

function customerToJson(customer: Customer | undefined) {
  if (!customer) throw new Error("the payments service answered without a customer");
  return {
    customerId: customer.customerId,
    customerReference: customer.customerReference,
    email: customer.email,
    ...(customer.name ? { name: customer.name } : {}),
  };
}

function moneyToJson(money: { amountMinor: bigint; currency: string } | undefined) {
  return { amountMinor: Number(money?.amountMinor ?? 0n), currency: money?.currency ?? "PHP" };
}

function checkoutToJson(checkout: Checkout | undefined, publicUrl: PublicUrl) {
  if (!checkout) throw new Error("the payments service answered without a checkout");
  return {
    checkoutId: checkout.checkoutId,
    referenceId: checkout.referenceId,
    status: enumToText(CheckoutStatusSchema, checkout.status),
    amount: moneyToJson(checkout.amount),
    ...(checkout.checkoutUrl ? { checkoutUrl: publicUrl(checkout.checkoutUrl) } : {}),
    aggregateVersion: checkout.aggregateVersion,
  };
}

const money = (body: Record<string, unknown>) => {
  const amount = body.amount as { amountMinor: number; currency: string };
  return { amountMinor: BigInt(amount.amountMinor), currency: amount.currency };
};

/** Payments operations ⇄ PaymentsService rpcs. */
export function paymentsRoutes(payments: Client<typeof PaymentsService>, publicUrl: PublicUrl): OperationHandlers {
  const simulateCheckout = (outcome: SimulatedOutcome): OperationHandlers[string] =>
    async ({ params }, { call }) => {
      const response = await payments.simulateCheckoutOutcome({ checkoutId: params.checkoutId, outcome }, call);
      return { status: 200, data: checkoutToJson(response.checkout, publicUrl) };
    };

  return {
    async getPaymentCapabilities(_input, { call }) {
      const response = await payments.getCapabilities({}, call);
      return { status: 200, data: capabilitiesToJson(response.capabilities) };
    },

    async createCustomer({ body }, { call }) {
      const response = await payments.createCustomer(
        {
          customerReference: body.customerReference as string,
          email: body.email as string,
          name: (body.name as string | undefined) ?? "",
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
          referenceId: body.referenceId as string,
          amount: money(body),
          successUrl: body.successUrl as string,
          cancelUrl: body.cancelUrl as string,
          metadata: (body.metadata as Record<string, string> | undefined) ?? {},
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
  };
}
