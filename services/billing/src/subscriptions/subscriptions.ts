import { AppError, invalidTransition, newId, notFound, type CallerContext } from "@bayad/kit";
import type { Session } from "@bayad/store";
import { actOnce, createOnce } from "@bayad/idempotency";
import { chooseProvider, type PaymentProvider } from "@bayad/provider";
import type { BillingDeps } from "../billing-deps.js";
import { firstSchedule, trialSchedule } from "../clock/billing-periods.js";
import { MAX_TRIAL_DAYS } from "../plans/plans.js";
import { draftInvoice, type InvoiceRecord } from "../invoices/invoice.js";
import { writeInvoice } from "../invoices/invoice-writes.js";
import { finalizeBilledInvoice } from "../invoices/invoices.js";
import { transactionRetryingConflicts } from "../transactions.js";
import { closePeriod } from "./close-period.js";
import { subscriptionStates, type SubscriptionRecord } from "./subscription.js";
import { changeSubscription, endSubscription, writeNewSubscription } from "./subscription-writes.js";
import { announceTrialWillEnd, trialWillEndAt } from "./trials.js";

export interface CreateSubscriptionInput {
  /** A customer of the caller's project: the gateway checked it (customers live in payments). */
  customerId: string;
  referenceId: string;
  /** The plan that prices the subscription. */
  priceId: string;
  /** The project's name, which its invoices and receipts are sent in (the gateway's projects hold it). */
  projectName?: string;
  /** Days of trial, overriding the plan's `trialDays` (0: none); absent: the plan's. */
  trialDays?: number;
}

function checkTrialDays(trialDays: number | undefined, field = "trialDays"): void {
  if (trialDays === undefined) return;
  if (!Number.isInteger(trialDays) || trialDays < 0 || trialDays > MAX_TRIAL_DAYS) {
    throw new AppError("VALIDATION_FAILED", undefined, { details: [`${field}: must be an integer from 0 to ${MAX_TRIAL_DAYS}`] });
  }
}

/**
 * Subscribes a customer to a plan, copying its pricing and metadata. Without a trial the first
 * period starts now and is billed at once: the subscription (pending) and its first invoice
 * (draft) are written in one transaction, then the invoice is finalized (open, with its payment
 * page). With one (the plan's `trialDays`, or the request's) the subscription is `trialing` and
 * nothing is billed: its first period starts at trialEnd, when the clock closes the trial. A
 * trial of 3 days or less announces `subscription.trial_will_end` in the creating transaction;
 * a longer one leaves it to the clock (3 days before trialEnd). A repeated Idempotency-Key returns
 * the subscription it created within its window; a referenceId names at most one subscription
 * per project and environment.
 */
export async function createSubscription(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreateSubscriptionInput,
): Promise<SubscriptionRecord> {
  // PROVIDER_NOT_CONFIGURED before anything is written: the invoices need a provider (the project's account, else the default).
  const { provider } = await chooseProvider(deps.providers, caller);
  const written = await createOnce(deps.keys, caller, "createSubscription", {
    existing: async (subscriptionId) => {
      const existing = await deps.subscriptions.findById(caller, subscriptionId);
      return existing && { subscription: existing, invoice: undefined };
    },
    create: (claim) => writeSubscription(deps, caller, input, claim, provider),
  });
  if (written.invoice) await finalizeBilledInvoice(deps, written.invoice);
  return written.subscription;
}

/** The new subscription and its first invoice, with the key's claim, in one transaction. */
async function writeSubscription(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: CreateSubscriptionInput,
  claim: (session: Session, subscriptionId: string) => Promise<void>,
  provider: PaymentProvider,
): Promise<{ subscription: SubscriptionRecord; invoice: InvoiceRecord | undefined }> {
  checkTrialDays(input.trialDays);
  const plan = await deps.plans.findById(caller, input.priceId);
  if (!plan) {
    throw new AppError("RESOURCE_NOT_FOUND", `No plan with id ${input.priceId}.`, {
      details: ["priceId: no such plan in this project and environment"],
    });
  }
  // Every invoice is paid on the provider's hosted page: an amount it would refuse (a PayMongo link
  // under ₱100) is refused now, before a draft is written that could never be finalized.
  provider.checkAmount?.({ flow: "hosted_payment", amount: { amountMinor: plan.amountMinor, currency: plan.currency } });
  const now = deps.now();
  const trialDays = input.trialDays ?? plan.trialDays ?? 0;
  const trial = trialDays > 0 ? trialSchedule(now, trialDays) : undefined;
  const schedule = trial ?? firstSchedule(plan, now);
  const subscription: SubscriptionRecord = {
    _id: newId("sub"),
    projectId: caller.projectId,
    environment: caller.environment,
    customerId: input.customerId,
    referenceId: input.referenceId,
    planId: plan._id,
    status: trial ? "trialing" : "pending",
    planName: plan.name,
    ...(input.projectName ? { projectName: input.projectName } : {}),
    amountMinor: plan.amountMinor,
    currency: plan.currency,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    cycleCount: plan.cycleCount,
    planMetadata: plan.metadata,
    cyclesBilled: schedule.period.periodNumber,
    currentPeriodStart: schedule.period.start,
    currentPeriodEnd: schedule.period.end,
    billingAnchor: schedule.billingAnchor,
    anchorPeriod: schedule.anchorPeriod,
    cancelAtPeriodEnd: false,
    ...(trial ? { trialEnd: trial.period.end, trialWillEndAt: trialWillEndAt(now, trial.period.end) } : {}),
    idempotencyKey: caller.idempotencyKey,
    aggregateVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
  const invoice = trial ? undefined : draftInvoice(subscription, schedule.period, now).invoice;
  let written = subscription;
  try {
    await deps.store.transaction(async (session) => {
      written = await writeNewSubscription(deps, session, subscription);
      // A trial of 3 days or less: its end is as near as announced ones ever are, so now.
      if (trial && subscription.trialWillEndAt && subscription.trialWillEndAt.getTime() <= now.getTime()) {
        written = await announceTrialWillEnd(deps, session, written);
      }
      if (invoice) await writeInvoice(deps, session, invoice);
      await claim(session, subscription._id);
    });
  } catch (error) {
    if (deps.subscriptions.conflictOf(error) === "reference") {
      throw new AppError("RESOURCE_ALREADY_EXISTS", "A subscription with this referenceId already exists.", {
        details: ["referenceId: a subscription with this reference already exists"],
      });
    }
    throw error;
  }
  return { subscription: written, invoice };
}

export async function getSubscription(deps: BillingDeps, caller: CallerContext, subscriptionId: string): Promise<SubscriptionRecord> {
  const record = await deps.subscriptions.findById(caller, subscriptionId);
  if (!record) throw notFound("subscription", subscriptionId);
  return record;
}

/** A subscription's invoices, oldest period first. */
export async function listSubscriptionInvoices(deps: BillingDeps, caller: CallerContext, subscriptionId: string) {
  const subscription = await getSubscription(deps, caller, subscriptionId);
  return deps.invoices.listForSubscription(subscription._id);
}

/**
 * Schedules the subscription's cancellation: it ends when its current period does (the clock
 * closes that period), whatever its status, pending included. The status stays as it is until
 * then. A subscription in its trial has been billed nothing, so its cancellation is not
 * scheduled: it ends at once (`cancelled`, no invoice ever). Scheduling again changes nothing; a
 * cancelled subscription → 409. A retry with the same key answers as the first call did (also
 * after the period ended the subscription).
 */
export async function cancelSubscription(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  subscriptionId: string,
): Promise<SubscriptionRecord> {
  return actOnce<SubscriptionRecord>(deps.keys, caller, "cancelSubscription", subscriptionId, (claim) =>
    transactionRetryingConflicts(deps.store, async (session) => {
      const current = await deps.subscriptions.findById(caller, subscriptionId, session);
      if (!current) throw notFound("subscription", subscriptionId);
      // Only a subscription that can still end can have its end scheduled.
      if (!subscriptionStates.can(current.status, "end")) throw invalidTransition("subscription", current.status, "cancelled");
      if (current.status === "trialing") {
        const ended = await endSubscription(deps, session, current, deps.now(), { trialWillEndAt: null, pendingPlanChange: null });
        await claim(session, ended);
        return ended;
      }
      const scheduled = current.cancelAtPeriodEnd
        ? current
        : await changeSubscription(deps, session, current, "cancellation_scheduled", { cancelAtPeriodEnd: true });
      await claim(session, scheduled);
      return scheduled;
    }),
  );
}

/**
 * Test helper: lets a billing period pass at once. The current period closes now and, unless
 * that ends the subscription, the next one starts now (its schedule re-anchored at now) and is
 * billed and finalized. A trial ends now the same way: the first period starts now. The close records the Idempotency-Key in its transaction, so a retry
 * answers with the subscription as this advance left it and never closes another period.
 */
export async function advanceSubscription(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  subscriptionId: string,
): Promise<SubscriptionRecord> {
  if (caller.environment !== "test") throw new AppError("TEST_MODE_ONLY");
  return actOnce<SubscriptionRecord>(deps.keys, caller, "advanceSubscription", subscriptionId, async (claim) => {
    const subscription = await getSubscription(deps, caller, subscriptionId);
    // An unpaid subscription bills no new period until its overdue invoices are paid.
    if (subscription.status === "cancelled" || subscription.status === "unpaid") throw invalidTransition("subscription", subscription.status, "advanced");
    const result = await closePeriod(deps, subscription, "now", claim);
    if (result.billed) await finalizeBilledInvoice(deps, result.billed);
    return result.subscription;
  });
}
