import { AppError, newId, notFound, type CallerContext } from "@bayad/kit";
import { commitChange, type Outbox } from "@bayad/events";
import { createOnce, type IdempotencyKeys } from "@bayad/idempotency";
import type { Store } from "@bayad/store";
import { customerToProto, type CustomerRecord } from "./customer.js";
import type { CustomersRepository } from "./customers-repository.js";

export interface CustomersDeps {
  store: Store;
  repository: CustomersRepository;
  outbox: Outbox;
  keys: IdempotencyKeys;
}

export interface CreateCustomerInput {
  customerReference: string;
  email: string;
  name?: string;
}

/**
 * Creates a customer, or returns the one this Idempotency-Key already created within its window:
 * a retry after a crash anywhere between here and the gateway never makes a second customer. A
 * customerReference names at most one customer per project and environment.
 */
export async function createCustomer(
  deps: CustomersDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreateCustomerInput,
): Promise<CustomerRecord> {
  return createOnce(deps.keys, caller, "createCustomer", {
    existing: (customerId) => deps.repository.findById(caller, customerId),
    create: async (claim) => {
      const record: CustomerRecord = {
        _id: newId("cus"),
        projectId: caller.projectId,
        environment: caller.environment,
        customerReference: input.customerReference,
        email: input.email,
        ...(input.name ? { name: input.name } : {}),
        idempotencyKey: caller.idempotencyKey,
        aggregateVersion: 1,
        createdAt: new Date(),
      };
      try {
        await commitChange({
          store: deps.store,
          collection: deps.repository.collection,
          outbox: deps.outbox,
          record,
          event: { name: "customer.created", caller, snapshot: { case: "customer", value: customerToProto(record) } },
          also: (session) => claim(session, record._id),
        });
        return record;
      } catch (error) {
        if (deps.repository.conflictOf(error) === "customer_reference") {
          throw new AppError("RESOURCE_ALREADY_EXISTS", "A customer with this customerReference already exists.", {
            details: ["customerReference: a customer with this reference already exists"],
          });
        }
        throw error;
      }
    },
  });
}

export async function getCustomer(
  deps: CustomersDeps,
  caller: CallerContext,
  customerId: string,
): Promise<CustomerRecord> {
  const record = await deps.repository.findById(caller, customerId);
  if (!record) throw notFound("customer", customerId);
  return record;
}
