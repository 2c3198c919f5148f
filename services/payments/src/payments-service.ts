import type { ServiceImpl } from "@connectrpc/connect";
import type { PaymentsService } from "@bayad/proto";
import { callerOf, mutatingCallerOf } from "@bayad/kit";
import { describeCapabilities } from "./capabilities.js";
import { createCustomer, getCustomer, type CustomersDeps } from "./customers/customers.js";
import { customerToProto } from "./customers/customer.js";

export interface PaymentsServiceDeps {
  customers: CustomersDeps;
  /** Payment methods the configured provider offers. */
  paymentMethods: readonly string[];
}

/**
 * The PaymentsService rpc handlers: read the caller, call the domain, map to the response.
 * Methods not listed here answer UNIMPLEMENTED until their resource is served.
 */
export function createPaymentsService(deps: PaymentsServiceDeps): Partial<ServiceImpl<typeof PaymentsService>> {
  return {
    getCapabilities() {
      return { capabilities: describeCapabilities(deps.paymentMethods) };
    },

    async createCustomer(request, context) {
      const customer = await createCustomer(deps.customers, mutatingCallerOf(context), {
        customerReference: request.customerReference,
        email: request.email,
        name: request.name || undefined,
      });
      return { customer: customerToProto(customer) };
    },

    async getCustomer(request, context) {
      return { customer: customerToProto(await getCustomer(deps.customers, callerOf(context), request.customerId)) };
    },
  };
}
