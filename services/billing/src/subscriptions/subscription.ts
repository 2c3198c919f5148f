import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { SubscriptionSchema, SubscriptionStatus, type Subscription } from "@bayad/proto";
import { defineStateMachine, type Environment, type StoredMetadata } from "@bayad/kit";
import type { BillingInterval } from "../clock/billing-periods.js";

export type SubscriptionState = "pending" | "active" | "past_due" | "unpaid" | "cancelled";
export type SubscriptionAction = "activate" | "fall_behind" | "mark_unpaid" | "end";

/**
 * A subscription's lifecycle. Its status follows its invoices (see subscription-status.ts, which
 * writes the status it derives), and these are the moves that following may make; the one status
 * chosen directly is `unpaid`, dunning's final action after an invoice's last reminder, which
 * stops the billing of new periods until no invoice is overdue (then `active` again). Nothing
 * leads back to pending (a paid invoice stays paid), and cancelled is final.
 */
export const subscriptionStates = defineStateMachine<SubscriptionState, SubscriptionAction>(
  "subscription",
  {
    activate: { from: ["pending", "past_due", "unpaid"], to: "active" },
    fall_behind: { from: ["pending", "active"], to: "past_due" },
    mark_unpaid: { from: ["pending", "active", "past_due"], to: "unpaid" },
    end: { from: ["pending", "active", "past_due", "unpaid"], to: "cancelled" },
  },
  { activate: "activated", fall_behind: "marked past due", mark_unpaid: "marked unpaid", end: "cancelled" },
);

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
  /** Periods billed so far; also the number of the current period. */
  cyclesBilled: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  /** Period k ends `k - anchorPeriod + 1` intervals after this, so periods never drift. */
  billingAnchor: Date;
  anchorPeriod: number;
  cancelAtPeriodEnd: boolean;
  /** When the subscription was cancelled (the end of its last period). */
  endedAt?: Date;
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
  });
}
