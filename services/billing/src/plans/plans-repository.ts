import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { PlanRecord } from "./plan.js";

export const plansCollection: CollectionDef = {
  name: "plans",
  indexes: [
    { name: "plans_idempotency_key", keys: { projectId: 1, environment: 1, idempotencyKey: 1 }, unique: true },
    { name: "plans_project_created", keys: { projectId: 1, environment: 1, createdAt: -1 } },
  ],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `plans` collection. */
export function createPlansRepository(store: Store) {
  const plans = store.collection<PlanRecord>(plansCollection);
  return {
    collection: plans,

    findById(scope: Scope, planId: string): Promise<PlanRecord | null> {
      return plans.findOne({ _id: planId, projectId: scope.projectId, environment: scope.environment });
    },

    findByIdempotencyKey(scope: Scope, idempotencyKey: string): Promise<PlanRecord | null> {
      return plans.findOne({ projectId: scope.projectId, environment: scope.environment, idempotencyKey });
    },

    listNewestFirst(scope: Scope, limit: number): Promise<PlanRecord[]> {
      return plans.find(
        { projectId: scope.projectId, environment: scope.environment },
        { sort: { createdAt: -1, _id: -1 }, limit },
      );
    },

    isIdempotencyConflict(error: unknown): boolean {
      return isDuplicateKeyError(error, "plans_idempotency_key");
    },
  };
}

export type PlansRepository = ReturnType<typeof createPlansRepository>;
