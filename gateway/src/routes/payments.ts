import type { Client } from "@connectrpc/connect";
import type { Capabilities, Customer, PaymentsService } from "@bayad/proto";
import type { OperationHandlers } from "./operation.js";

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

/** Payments operations ⇄ PaymentsService rpcs. */
export function paymentsRoutes(payments: Client<typeof PaymentsService>): OperationHandlers {
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
  };
}
