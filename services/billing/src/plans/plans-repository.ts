import type { CollectionDef, Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { PlanRecord } from "./plan.js";

export const plansCollection: CollectionDef = {
  name: "plans",
  indexes: [
    { name: "plans_project_created", keys: { projectId: 1, environment: 1, createdAt: -1 } },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["plans_idempotency_key"],
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

    listNewestFirst(scope: Scope, limit: number): Promise<PlanRecord[]> {
      return plans.find(
        { projectId: scope.projectId, environment: scope.environment },
        { sort: { createdAt: -1, _id: -1 }, limit },
      );
    },
  };
}

export type PlansRepository = ReturnType<typeof createPlansRepository>;
