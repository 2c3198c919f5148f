import { createClient, type Transport } from "@connectrpc/connect";
import { PaymentsService } from "@bayad/proto";
import { callerHeaders, fromConnectError, type Environment } from "@bayad/kit";
import type { MessageLocale } from "@bayad/messaging";

/** A customer as messages need them: where to and in which language. */
export interface MessageCustomer {
  email: string;
  name?: string;
  /** `+<digits>`. */
  phone?: string;
  locale?: MessageLocale;
}

/** The customers of the payments service, which owns them: billing asks for one when it writes to them. */
export interface CustomerDirectory {
  /** The customer, or null when the project has no such customer. Throws when the answer cannot be had (the payments service is down). */
  find(scope: { projectId: string; environment: Environment }, customerId: string): Promise<MessageCustomer | null>;
}

const LOOKUP_TIMEOUT_MS = 5_000;

/** The directory over the payments service's GetCustomer, called as the customer's project. */
export function paymentsCustomerDirectory(transport: Transport): CustomerDirectory {
  const client = createClient(PaymentsService, transport);
  return {
    async find(scope, customerId) {
      try {
        const { customer } = await client.getCustomer(
          { customerId },
          { headers: callerHeaders({ ...scope, correlationId: `billing-messages-${customerId}` }), timeoutMs: LOOKUP_TIMEOUT_MS },
        );
        if (!customer) return null;
        return {
          email: customer.email,
          ...(customer.name ? { name: customer.name } : {}),
          ...(customer.phone ? { phone: customer.phone } : {}),
          ...(customer.locale === "en" || customer.locale === "fil" ? { locale: customer.locale } : {}),
        };
      } catch (error) {
        const failure = fromConnectError(error);
        if (failure.code === "RESOURCE_NOT_FOUND") return null;
        throw failure;
      }
    },
  };
}
