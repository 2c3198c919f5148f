import type { CollectionDef, Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { RefundRecord } from "./refund.js";

export const refundsCollection: CollectionDef = {
  name: "refunds",
  indexes: [
    { name: "refunds_payment", keys: { paymentId: 1, createdAt: 1 } },
    // The sweep's query: pending refunds the provider may never have been asked about.
    { name: "refunds_status_created", keys: { status: 1, createdAt: 1 } },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["refunds_idempotency_key"],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `refunds` collection. */
export function createRefundsRepository(store: Store) {
  const refunds = store.collection<RefundRecord>(refundsCollection);
  return {
    collection: refunds,

    findById(scope: Scope, refundId: string): Promise<RefundRecord | null> {
      return refunds.findOne({ _id: refundId, projectId: scope.projectId, environment: scope.environment });
    },

    /** Unscoped: a refund a provider's report names (by Bayad's id, from the metadata Bayad put on the provider's refund). */
    findByIdForProvider(refundId: string): Promise<RefundRecord | null> {
      return refunds.findOne({ _id: refundId });
    },

    /** Pending refunds made through a provider account, created before `before`, oldest first (the reconciler's). */
    findPendingAtProviders(before: Date, limit: number): Promise<RefundRecord[]> {
      return refunds.find(
        { status: "pending", createdAt: { $lt: before }, providerAccountId: { $exists: true } },
        { sort: { createdAt: 1 }, limit },
      );
    },

    /** Pending refunds created before `before` that have no provider reference yet, oldest first. */
    findUnacknowledged(before: Date, limit: number): Promise<RefundRecord[]> {
      return refunds.find(
        { status: "pending", createdAt: { $lt: before }, providerReference: { $exists: false } },
        { sort: { createdAt: 1 }, limit },
      );
    },

    /** How many refunds of payment `paymentId` are pending (PayMongo takes one at a time). */
    countPending(paymentId: string): Promise<number> {
      return refunds.count({ paymentId, status: "pending" });
    },

    /** Records the provider's reference, unless one is recorded already (a concurrent re-drive). */
    async recordProviderReference(refundId: string, providerReference: string): Promise<void> {
      await refunds.updateOne({ _id: refundId, providerReference: { $exists: false } }, { $set: { providerReference } });
    },
  };
}

export type RefundsRepository = ReturnType<typeof createRefundsRepository>;
