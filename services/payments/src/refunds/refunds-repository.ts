import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { RefundRecord } from "./refund.js";

export const refundsCollection: CollectionDef = {
  name: "refunds",
  indexes: [
    { name: "refunds_idempotency_key", keys: { projectId: 1, environment: 1, idempotencyKey: 1 }, unique: true },
    { name: "refunds_payment", keys: { paymentId: 1, createdAt: 1 } },
  ],
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

    findByIdempotencyKey(scope: Scope, idempotencyKey: string): Promise<RefundRecord | null> {
      return refunds.findOne({ projectId: scope.projectId, environment: scope.environment, idempotencyKey });
    },

    isIdempotencyConflict(error: unknown): boolean {
      return isDuplicateKeyError(error, "refunds_idempotency_key");
    },
  };
}

export type RefundsRepository = ReturnType<typeof createRefundsRepository>;
