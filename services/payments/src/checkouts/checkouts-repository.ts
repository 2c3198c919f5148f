import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { CheckoutRecord, CheckoutState } from "./checkout.js";

export const checkoutsCollection: CollectionDef = {
  name: "checkouts",
  indexes: [
    { name: "checkouts_reference", keys: { projectId: 1, environment: 1, referenceId: 1 }, unique: true },
    { name: "checkouts_status_created", keys: { status: 1, createdAt: 1 } },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["checkouts_idempotency_key"],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `checkouts` collection. */
export function createCheckoutsRepository(store: Store) {
  const checkouts = store.collection<CheckoutRecord>(checkoutsCollection);
  return {
    collection: checkouts,

    findById(scope: Scope, checkoutId: string): Promise<CheckoutRecord | null> {
      return checkouts.findOne({ _id: checkoutId, projectId: scope.projectId, environment: scope.environment });
    },

    /** Unscoped: for hosted pages, which prove access with the page token instead. */
    findByIdForPage(checkoutId: string): Promise<CheckoutRecord | null> {
      return checkouts.findOne({ _id: checkoutId });
    },

    findByReference(scope: Scope, referenceId: string): Promise<CheckoutRecord | null> {
      return checkouts.findOne({ projectId: scope.projectId, environment: scope.environment, referenceId });
    },

    /** Checkouts still waiting for the provider since before `before`, oldest first. */
    findStale(status: CheckoutState, before: Date, limit: number): Promise<CheckoutRecord[]> {
      return checkouts.find({ status, createdAt: { $lt: before } }, { sort: { createdAt: 1 }, limit });
    },

    conflictOf(error: unknown): "reference" | null {
      if (isDuplicateKeyError(error, "checkouts_reference")) return "reference";
      return null;
    },
  };
}

export type CheckoutsRepository = ReturnType<typeof createCheckoutsRepository>;
