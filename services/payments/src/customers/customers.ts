import { AppError, newId, notFound, type CallerContext } from "@bayad/kit";
import { commitChange, type Outbox } from "@bayad/events";
import { createOnce, type IdempotencyKeys } from "@bayad/idempotency";
import type { Store } from "@bayad/store";
import { normalizePhoneNumber } from "@bayad/messaging";
import { customerToProto, type CustomerLocale, type CustomerRecord } from "./customer.js";
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
  phone?: string;
  locale?: string;
}

const locales: readonly string[] = ["en", "fil"] satisfies CustomerLocale[];

/** The optional phone (stored as `+<digits>`) and locale of a new customer; a bad one is a 400 naming its field. */
function contactOf(input: CreateCustomerInput): Pick<CustomerRecord, "phone" | "locale"> {
  const contact: Pick<CustomerRecord, "phone" | "locale"> = {};
  if (input.phone) {
    const phone = normalizePhoneNumber(input.phone);
    if (!phone) throw new AppError("VALIDATION_FAILED", "The phone is not a phone number.", { details: ["phone: must be a phone number of 7 to 15 digits with an optional leading +"] });
    contact.phone = phone;
  }
  if (input.locale) {
    if (!locales.includes(input.locale)) throw new AppError("VALIDATION_FAILED", "The locale is not supported.", { details: ["locale: must be en or fil"] });
    contact.locale = input.locale as CustomerLocale;
  }
  return contact;
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
  const contact = contactOf(input);
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
        ...contact,
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
