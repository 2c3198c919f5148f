import { isDuplicateKeyError, type CollectionDef, type Session, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { SubscriptionRecord, SubscriptionState } from "./subscription.js";

export const subscriptionsCollection: CollectionDef = {
  name: "subscriptions",
  indexes: [
    { name: "subscriptions_reference", keys: { projectId: 1, environment: 1, referenceId: 1 }, unique: true },
    // The billing clock's query: subscriptions still running whose current period has ended.
    { name: "subscriptions_status_period_end", keys: { status: 1, currentPeriodEnd: 1 } },
    // The billing clock's other query: trials whose `subscription.trial_will_end` is due.
    { name: "subscriptions_status_trial_will_end", keys: { status: 1, trialWillEndAt: 1 } },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["subscriptions_idempotency_key"],
};

const running: SubscriptionState[] = ["trialing", "pending", "active", "past_due"];

type Scope = Pick<CallerContext, "projectId" | "environment">;

const scopeFilter = (scope: Scope) => ({ projectId: scope.projectId, environment: scope.environment });

/** The only code that knows the `subscriptions` collection. */
export function createSubscriptionsRepository(store: Store) {
  const subscriptions = store.collection<SubscriptionRecord>(subscriptionsCollection);
  return {
    collection: subscriptions,

    findById(scope: Scope, subscriptionId: string, session?: Session): Promise<SubscriptionRecord | null> {
      return subscriptions.findOne({ _id: subscriptionId, projectId: scope.projectId, environment: scope.environment }, { session });
    },

    /** Unscoped: for the billing clock, hosted pages and work on an invoice's own subscription. */
    findByIdUnscoped(subscriptionId: string, session?: Session): Promise<SubscriptionRecord | null> {
      return subscriptions.findOne({ _id: subscriptionId }, { session });
    },

    /**
     * Running subscriptions whose current period ended by `now`, and unpaid ones among them whose
     * cancellation is scheduled (an unpaid subscription bills no new period, but still ends),
     * longest overdue first; only `scope`'s when given (a test helper running the clock).
     */
    async findDue(now: Date, limit: number, skip: readonly string[] = [], scope?: Scope): Promise<SubscriptionRecord[]> {
      const common = { currentPeriodEnd: { $lte: now }, ...(skip.length ? { _id: { $nin: [...skip] } } : {}), ...(scope ? scopeFilter(scope) : {}) };
      const options = { sort: { currentPeriodEnd: 1 as const }, limit };
      const [billing, ending] = await Promise.all([
        subscriptions.find({ status: { $in: running }, ...common }, options),
        subscriptions.find({ status: "unpaid", cancelAtPeriodEnd: true, ...common }, options),
      ]);
      return [...billing, ...ending].sort((a, b) => a.currentPeriodEnd.getTime() - b.currentPeriodEnd.getTime()).slice(0, limit);
    },

    /** Trials whose `subscription.trial_will_end` is due by `now` and not yet announced, soonest first. */
    findTrialWillEndDue(now: Date, limit: number): Promise<SubscriptionRecord[]> {
      return subscriptions.find(
        { status: "trialing", trialWillEndAt: { $lte: now }, trialEnd: { $gt: now } },
        { sort: { trialWillEndAt: 1 }, limit },
      );
    },

    /**
     * Writes `statusCheckedAt` over the version `subscription` was read at, changing nothing else:
     * the write a transaction makes so that another one deciding from the same subscription (and
     * writing it) conflicts with it, which snapshot isolation does not do for reads (port.ts).
     * False when the subscription moved past that version since: the caller's decision is stale.
     */
    async markStatusChecked(subscription: SubscriptionRecord, at: Date, session: Session): Promise<boolean> {
      const touched = await subscriptions.updateOne(
        { _id: subscription._id, aggregateVersion: subscription.aggregateVersion },
        { $set: { statusCheckedAt: at } },
        { session },
      );
      return touched.matched > 0;
    },

    conflictOf(error: unknown): "reference" | null {
      if (isDuplicateKeyError(error, "subscriptions_reference")) return "reference";
      return null;
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
