import { AppError, CURRENCY, isValidAmountMinor, newId, notFound, toStoredMetadata, type CallerContext } from "@bayad/kit";
import { commitChange } from "@bayad/events";
import { createOnce } from "@bayad/idempotency";
import type { BillingDeps } from "../billing-deps.js";
import type { BillingInterval } from "../clock/billing-periods.js";
import { planToProto, type PlanRecord } from "./plan.js";

/** The longest trial, in days (two years). */
export const MAX_TRIAL_DAYS = 730;

export interface CreatePlanInput {
  name: string;
  description?: string;
  amountMinor: number;
  /** Absent or empty: PHP, the only currency. */
  currency?: string;
  /** Absent when the request named none (or an unknown one). */
  interval: BillingInterval | undefined;
  /** Absent or 0: 1. */
  intervalCount?: number;
  /** Absent or 0: bills indefinitely. */
  cycleCount?: number;
  /** Absent or 0: no trial. */
  trialDays?: number;
  metadata?: Record<string, string>;
}

/** How many plans a list returns at most: a project's catalogue, not a feed. */
const PLAN_LIST_LIMIT = 1000;

/**
 * The gateway validates the public bounds; these checks keep a direct gRPC caller from storing
 * a plan that billing could not work with.
 */
function validated(input: CreatePlanInput): Omit<PlanRecord, "_id" | "projectId" | "environment" | "idempotencyKey" | "aggregateVersion" | "createdAt"> {
  const details: string[] = [];
  if (!input.name) details.push("name: is required");
  if (!isValidAmountMinor(input.amountMinor)) details.push("amount: must be a positive integer of centavos");
  if (input.currency && input.currency !== CURRENCY) details.push(`currency: must be ${CURRENCY}`);
  if (!input.interval) details.push("interval: must be weekly, monthly or yearly");
  const intervalCount = input.intervalCount || 1;
  if (!Number.isInteger(intervalCount) || intervalCount < 1) details.push("intervalCount: must be a positive integer");
  const cycleCount = input.cycleCount ?? 0;
  if (!Number.isInteger(cycleCount) || cycleCount < 0) details.push("cycleCount: must be 0 (bill indefinitely) or a positive integer");
  const trialDays = input.trialDays ?? 0;
  if (!Number.isInteger(trialDays) || trialDays < 0 || trialDays > MAX_TRIAL_DAYS) details.push(`trialDays: must be an integer from 0 to ${MAX_TRIAL_DAYS}`);
  if (details.length > 0 || !input.interval) throw new AppError("VALIDATION_FAILED", undefined, { details });
  return {
    name: input.name,
    description: input.description ?? "",
    amountMinor: input.amountMinor,
    currency: CURRENCY,
    interval: input.interval,
    intervalCount,
    cycleCount,
    trialDays,
    metadata: toStoredMetadata(input.metadata ?? {}),
  };
}

/**
 * Creates a plan, or returns the one this Idempotency-Key already created within its window (also
 * when a concurrent request with the key won the race). Plans are never changed afterwards.
 */
export async function createPlan(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreatePlanInput,
): Promise<PlanRecord> {
  return createOnce(deps.keys, caller, "createPlan", {
    existing: (planId) => deps.plans.findById(caller, planId),
    create: async (claim) => {
      const record: PlanRecord = {
        _id: newId("plan"),
        projectId: caller.projectId,
        environment: caller.environment,
        ...validated(input),
        idempotencyKey: caller.idempotencyKey,
        aggregateVersion: 1,
        createdAt: deps.now(),
      };
      await commitChange({
        store: deps.store,
        collection: deps.plans.collection,
        outbox: deps.outbox,
        record,
        event: { name: "plan.created", caller, snapshot: { case: "plan", value: planToProto(record) } },
        also: (session) => claim(session, record._id),
      });
      return record;
    },
  });
}

/** The caller's plans (its project and environment), newest first. */
export function listPlans(deps: BillingDeps, caller: CallerContext): Promise<PlanRecord[]> {
  return deps.plans.listNewestFirst(caller, PLAN_LIST_LIMIT);
}

export async function getPlan(deps: BillingDeps, caller: CallerContext, planId: string): Promise<PlanRecord> {
  const record = await deps.plans.findById(caller, planId);
  if (!record) throw notFound("plan", planId);
  return record;
}
