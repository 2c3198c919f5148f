import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PlanInterval, PlanSchema, type Plan } from "@bayad/proto";
import { fromStoredMetadata, type Environment, type StoredMetadata } from "@bayad/kit";
import type { BillingInterval } from "../clock/billing-periods.js";

/** A plan as stored in the `plans` collection. Plans are immutable: their version stays 1. */
export interface PlanRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  name: string;
  description: string;
  amountMinor: number;
  currency: "PHP";
  interval: BillingInterval;
  intervalCount: number;
  /** Periods billed before the subscription ends; 0 = indefinitely. */
  cycleCount: number;
  /** Days of trial its subscriptions start with (0: none); absent on plans made before trials. */
  trialDays?: number;
  metadata: StoredMetadata;
  /** The Idempotency-Key of the request that created it: unique per project and environment. */
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
}

const protoInterval: Record<BillingInterval, PlanInterval> = {
  weekly: PlanInterval.WEEKLY,
  monthly: PlanInterval.MONTHLY,
  yearly: PlanInterval.YEARLY,
};

/** The interval a request names, or undefined for UNSPECIFIED and unknown values. */
export function intervalOf(value: PlanInterval): BillingInterval | undefined {
  return (Object.keys(protoInterval) as BillingInterval[]).find((name) => protoInterval[name] === value);
}

export function planToProto(record: PlanRecord): Plan {
  return create(PlanSchema, {
    planId: record._id,
    name: record.name,
    description: record.description,
    amount: BigInt(record.amountMinor),
    currency: record.currency,
    interval: protoInterval[record.interval],
    intervalCount: record.intervalCount,
    cycleCount: record.cycleCount,
    trialDays: record.trialDays ?? 0,
    metadata: fromStoredMetadata(record.metadata),
    createdAt: timestampFromDate(record.createdAt),
  });
}
