import type { CollectionDef, Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { PaymentIntentRecord } from "./payment-intent.js";

export const paymentIntentsCollection: CollectionDef = {
  name: "payment_intents",
  indexes: [
    { name: "payment_intents_status_expires", keys: { status: 1, expiresAt: 1 } },
    // A provider's webhook names the provider's intent (PayMongo's pi_…), not Bayad's.
    { name: "payment_intents_provider_reference", keys: { providerReference: 1 } },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["payment_intents_idempotency_key"],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `payment_intents` collection. */
export function createPaymentIntentsRepository(store: Store) {
  const intents = store.collection<PaymentIntentRecord>(paymentIntentsCollection);
  return {
    collection: intents,

    /** Scoped to a project and environment; a stored record is itself a scope, for re-reads. */
    findById(scope: Scope, paymentIntentId: string): Promise<PaymentIntentRecord | null> {
      return intents.findOne({ _id: paymentIntentId, projectId: scope.projectId, environment: scope.environment });
    },

    /** Unscoped: for the sandbox's QR images, which prove access with the page token instead. */
    findByIdForPage(paymentIntentId: string): Promise<PaymentIntentRecord | null> {
      return intents.findOne({ _id: paymentIntentId });
    },

    /** Unscoped: the intent a provider's report names by the provider's own id. */
    findByProviderReference(providerReference: string): Promise<PaymentIntentRecord | null> {
      return intents.findOne({ providerReference });
    },

    /** Unpaid QR Ph intents whose code has expired by `now`, soonest expired first. */
    findDueForExpiry(now: Date, limit: number): Promise<PaymentIntentRecord[]> {
      return intents.find(
        { status: "awaiting_next_action", expiresAt: { $lte: now } },
        { sort: { expiresAt: 1 }, limit },
      );
    },
  };
}

export type PaymentIntentsRepository = ReturnType<typeof createPaymentIntentsRepository>;
