import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { CustomerRecord } from "./customer.js";

const customersCollection: CollectionDef = {
  name: "customers",
  indexes: [
    {
      name: "customers_reference",
      keys: { projectId: 1, environment: 1, customerReference: 1 },
      unique: true,
    },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["customers_idempotency_key"],
};

/** Which uniqueness a failed insert broke, if it was a uniqueness failure. */
export type CustomerConflict = "customer_reference";

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `customers` collection. */
export function createCustomersRepository(store: Store) {
  const customers = store.collection<CustomerRecord>(customersCollection);
  return {
    collection: customers,

    conflictOf(error: unknown): CustomerConflict | null {
      if (isDuplicateKeyError(error, "customers_reference")) return "customer_reference";
      return null;
    },

    findById(scope: Scope, customerId: string): Promise<CustomerRecord | null> {
      return customers.findOne({ _id: customerId, projectId: scope.projectId, environment: scope.environment });
    },
  };
}

export type CustomersRepository = ReturnType<typeof createCustomersRepository>;
