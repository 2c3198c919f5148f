import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PendingPlanChangeSchema, SubscriptionSchema, SubscriptionStatus, type Subscription } from "@bayad/proto";
import { defineStateMachine, type Environment, type StoredMetadata } from "@bayad/kit";
import type { BillingInterval } from "../clock/billing-periods.js";

export type SubscriptionState = "trialing" | "pending" | "active" | "past_due" | "unpaid" | "cancelled";
export type SubscriptionAction = "end_trial" | "activate" | "fall_behind" | "mark_unpaid" | "end";

/**
 * A subscription's lifecycle. A subscription made with a trial starts `trialing` and bills
 * nothing until its trial ends (then `pending`, its first invoice issued) or it is cancelled.
 * After the trial its status follows its invoices (see subscription-status.ts, which writes the
 * status it derives), and these are the moves that following may make; the one status chosen
 * directly is `unpaid`, dunning's final action after an invoice's last reminder, which stops the
 * billing of new periods until no invoice is overdue (then `active` again). Nothing leads back to
 * pending (a paid invoice stays paid) or to trialing, and cancelled is final.
 */
export const subscriptionStates = defineStateMachine<SubscriptionState, SubscriptionAction>(
  "subscription",
  {
    end_trial: { from: ["trialing"], to: "pending" },
    activate: { from: ["pending", "past_due", "unpaid"], to: "active" },
    fall_behind: { from: ["pending", "active"], to: "past_due" },
    mark_unpaid: { from: ["pending", "active", "past_due"], to: "unpaid" },
    end: { from: ["trialing", "pending", "active", "past_due", "unpaid"], to: "cancelled" },
  },
  { end_trial: "ended its trial", activate: "activated", fall_behind: "marked past due", mark_unpaid: "marked unpaid", end: "cancelled" },
);

/** A plan change waiting for the end of the current period: the new plan's pricing, copied. */
export interface PendingPlanChange {
  planId: string;
  planName: string;
  amountMinor: number;
  cycleCount: number;
  planMetadata: StoredMetadata;
  requestedAt: Date;
}

/** A subscription as stored in the `subscriptions` collection. */
export interface SubscriptionRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  /** A customer of the payments service; the gateway checked it belongs to the project. */
  customerId: string;
  referenceId: string;
  planId: string;
  status: SubscriptionState;
  // The plan's pricing, copied at creation so that billing never depends on reading the plan.
  planName: string;
  /**
   * The project's name, which the customer's invoices and receipts are sent in: a copy of the
   * gateway's (projects are never renamed). Absent on subscriptions made before messages were sent.
   */
  projectName?: string;
  amountMinor: number;
  currency: "PHP";
  interval: BillingInterval;
  intervalCount: number;
  /** 0 = bills indefinitely. */
  cycleCount: number;
  /** The plan's metadata, copied with its pricing: the sandbox decides payments from it. */
  planMetadata: StoredMetadata;
  /** Periods billed so far; also the number of the current period (0 during a trial). */
  cyclesBilled: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  /**
   * Period k ends `k - anchorPeriod + 1` intervals after this, so periods never drift. During a
   * trial the current "period" is the trial itself (number 0, ending at trialEnd, the anchor).
   */
  billingAnchor: Date;
  anchorPeriod: number;
  cancelAtPeriodEnd: boolean;
  /** When the subscription was cancelled (the end of its last period, or the cancel of its trial). */
  endedAt?: Date;
  /** When its trial ends (subscriptions created with a trial). */
  trialEnd?: Date;
  /**
   * When `subscription.trial_will_end` is due (3 days before trialEnd, or creation for a shorter
   * trial); removed once announced, so it is announced at most once.
   */
  trialWillEndAt?: Date | null;
  /** Scheduled by a plan change `at_period_end`; null once applied or replaced by a change now. */
  pendingPlanChange?: PendingPlanChange | null;
  /** Centavos of credit from a downgrade, taken off the next invoices; absent = 0. */
  creditBalanceMinor?: number;
  /** How many plan changes were prorated: the proration invoices' planChange. Absent = 0. */
  planChanges?: number;
  /**
   * Written by a payment or a finalize that re-derives the status and leaves it as it is (a
   * change of status writes a new version anyway): such a transaction then conflicts with any
   * other writing the subscription (another payment or finalize, a period closing) instead of
   * each deciding from a snapshot that misses the other's change. Never read.
   */
  statusCheckedAt?: Date;
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

const protoStatus: Record<SubscriptionState, SubscriptionStatus> = {
  trialing: SubscriptionStatus.TRIALING,
  pending: SubscriptionStatus.PENDING,
  active: SubscriptionStatus.ACTIVE,
  past_due: SubscriptionStatus.PAST_DUE,
  unpaid: SubscriptionStatus.UNPAID,
  cancelled: SubscriptionStatus.CANCELLED,
};

export function subscriptionToProto(record: SubscriptionRecord): Subscription {
  return create(SubscriptionSchema, {
    subscriptionId: record._id,
    customerId: record.customerId,
    referenceId: record.referenceId,
    planId: record.planId,
    status: protoStatus[record.status],
    currentPeriodStart: timestampFromDate(record.currentPeriodStart),
    currentPeriodEnd: timestampFromDate(record.currentPeriodEnd),
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
    cyclesBilled: record.cyclesBilled,
    aggregateVersion: record.aggregateVersion,
    createdAt: timestampFromDate(record.createdAt),
    amount: { amountMinor: BigInt(record.amountMinor), currency: record.currency },
    ...(record.trialEnd ? { trialEnd: timestampFromDate(record.trialEnd) } : {}),
    ...(record.pendingPlanChange
      ? {
          pendingPlanChange: create(PendingPlanChangeSchema, {
            planId: record.pendingPlanChange.planId,
            amount: BigInt(record.pendingPlanChange.amountMinor),
            effectiveAt: timestampFromDate(record.currentPeriodEnd),
          }),
        }
      : {}),
    creditBalance: BigInt(record.creditBalanceMinor ?? 0),
  });
}
