import { AppError, invalidTransition, newId, notFound, type CallerContext } from "@bayad/kit";
import type { Session } from "@bayad/store";
import { actOnce } from "@bayad/idempotency";
import { chooseProvider } from "@bayad/provider";
import type { BillingDeps } from "../billing-deps.js";
import { withCreditApplied, type InvoiceLine, type InvoiceRecord } from "../invoices/invoice.js";
import { writeInvoice } from "../invoices/invoice-writes.js";
import { finalizeBilledInvoice } from "../invoices/invoices.js";
import type { PlanRecord } from "../plans/plan.js";
import type { PendingPlanChange, SubscriptionRecord } from "../subscriptions/subscription.js";
import { changeSubscription } from "../subscriptions/subscription-writes.js";
import { transactionRetryingConflicts } from "../transactions.js";
import { prorate } from "./proration.js";

/** When a plan change takes effect: at once, prorated, or when the current period ends. */
export type Prorate = "now" | "at_period_end";

export interface PlanChangeInput {
  /** The new plan (the API's priceId). */
  priceId: string;
  /** Absent when the request named none (or an unknown one). */
  prorate: Prorate | undefined;
  /** The instant the proration is measured at (a preview's); absent: now. */
  prorationDate?: Date;
}

/** What a plan change does: the lines it invoices now (none at period end) and what is left over. */
export interface PlanChangeQuote {
  plan: PlanRecord;
  prorate: Prorate;
  /** The instant the proration is measured at. */
  prorationDate: Date;
  /** When the new plan takes effect. */
  effectiveAt: Date;
  lines: InvoiceLine[];
  /** The sum of the lines (negative: a net credit). */
  totalMinor: number;
  /** What the change's invoice asks for: max(total, 0). */
  amountDueMinor: number;
  /** What goes to the subscription's credit balance: max(-total, 0). */
  creditCarriedMinor: number;
  /** The credit balance the invoice takes. */
  creditUsedMinor: number;
}

/** How far back a proration date may lie: a preview's quote holds for an hour. */
export const PRORATION_DATE_WINDOW_MS = 60 * 60 * 1000;

const invalid = (detail: string, message?: string) => new AppError("VALIDATION_FAILED", message, { details: [detail] });

/** The new plan's pricing on `subscription` (a change now, or one scheduled for the period's end). */
function switchedTo(change: Pick<PendingPlanChange, "planId" | "planName" | "amountMinor" | "cycleCount" | "planMetadata">): Partial<SubscriptionRecord> {
  return {
    planId: change.planId,
    planName: change.planName,
    amountMinor: change.amountMinor,
    cycleCount: change.cycleCount,
    planMetadata: change.planMetadata,
    pendingPlanChange: null,
  };
}

const pendingOf = (plan: PlanRecord, requestedAt: Date): PendingPlanChange => ({
  planId: plan._id,
  planName: plan.name,
  amountMinor: plan.amountMinor,
  cycleCount: plan.cycleCount,
  planMetadata: plan.metadata,
  requestedAt,
});

/** Applies a scheduled change inside `session` (event `subscription.plan_changed`): the period closing calls it. */
export function applyPendingPlanChange(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  change: PendingPlanChange,
): Promise<SubscriptionRecord> {
  return changeSubscription(deps, session, subscription, "plan_changed", switchedTo(change));
}

/**
 * What changing `subscription` to `input`'s plan would do at `now`, or why it cannot: 400 for a
 * missing or unknown `prorate`, the plan it has, a plan billing on another cadence or a proration
 * date out of bounds; 404 for an unknown plan; 409 for a subscription cancelled or whose
 * cancellation is scheduled. Pure but for reading the plan.
 */
async function quote(
  deps: BillingDeps,
  caller: CallerContext,
  subscription: SubscriptionRecord,
  input: PlanChangeInput,
  now: Date,
): Promise<PlanChangeQuote> {
  if (!input.prorate) throw invalid("prorate: must be now or at_period_end");
  if (subscription.status === "cancelled") throw invalidTransition("subscription", subscription.status, "changed to another plan");
  if (subscription.cancelAtPeriodEnd) {
    throw new AppError("INVALID_STATE_TRANSITION", "A subscription whose cancellation is scheduled cannot be changed to another plan.");
  }
  const plan = await deps.plans.findById(caller, input.priceId);
  if (!plan) throw new AppError("RESOURCE_NOT_FOUND", `No plan with id ${input.priceId}.`, { details: ["priceId: no such plan in this project and environment"] });
  if (plan._id === subscription.planId) throw invalid("priceId: is the subscription's plan already", "The subscription is on this plan already.");
  if (plan.interval !== subscription.interval || plan.intervalCount !== subscription.intervalCount) {
    throw invalid(`priceId: must bill every ${subscription.intervalCount} ${subscription.interval} period like the subscription's plan`);
  }
  const prorationDate = input.prorationDate ?? now;
  const inPeriod = subscription.currentPeriodStart.getTime() <= prorationDate.getTime() && prorationDate.getTime() < subscription.currentPeriodEnd.getTime();
  const recent = prorationDate.getTime() <= now.getTime() && prorationDate.getTime() >= now.getTime() - PRORATION_DATE_WINDOW_MS;
  if (input.prorationDate && !(inPeriod && recent)) {
    throw invalid("prorationDate: must lie in the current period, within the last hour and not in the future");
  }
  const unprorated = { plan, prorate: input.prorate, prorationDate, lines: [], totalMinor: 0, amountDueMinor: 0, creditCarriedMinor: 0, creditUsedMinor: 0 };
  if (input.prorate === "at_period_end") return { ...unprorated, effectiveAt: subscription.currentPeriodEnd };
  // Nothing is billed during a trial, so nothing is prorated: the plan changes at once.
  if (subscription.status === "trialing") return { ...unprorated, effectiveAt: prorationDate };
  // The period ended and the clock has not closed it yet: its close comes first.
  if (!inPeriod) throw new AppError("CONCURRENT_MODIFICATION", "The subscription's period is closing; try again in a moment.");
  const shares = prorate({
    periodStart: subscription.currentPeriodStart,
    periodEnd: subscription.currentPeriodEnd,
    at: prorationDate,
    oldAmountMinor: subscription.amountMinor,
    newAmountMinor: plan.amountMinor,
  });
  const proration: InvoiceLine[] = [
    { description: `Unused time on ${subscription.planName} (${shares.remainingSeconds} of ${shares.periodSeconds} s)`, amountMinor: shares.creditMinor, kind: "proration" },
    { description: `Remaining time on ${plan.name} (${shares.remainingSeconds} of ${shares.periodSeconds} s)`, amountMinor: shares.chargeMinor, kind: "proration" },
  ];
  if (shares.totalMinor <= 0) {
    return { ...unprorated, effectiveAt: prorationDate, lines: proration, totalMinor: shares.totalMinor, creditCarriedMinor: -shares.totalMinor };
  }
  const applied = withCreditApplied(proration, subscription.creditBalanceMinor ?? 0);
  return {
    ...unprorated,
    effectiveAt: prorationDate,
    lines: applied.lines,
    totalMinor: applied.amountMinor,
    amountDueMinor: applied.amountMinor,
    creditUsedMinor: applied.creditUsedMinor,
  };
}

async function ownSubscription(deps: BillingDeps, caller: CallerContext, subscriptionId: string, session?: Session): Promise<SubscriptionRecord> {
  const subscription = await deps.subscriptions.findById(caller, subscriptionId, session);
  if (!subscription) throw notFound("subscription", subscriptionId);
  return subscription;
}

/** What changing the subscription's plan would do now: the preview operation. Writes nothing. */
export async function previewPlanChange(
  deps: BillingDeps,
  caller: CallerContext,
  subscriptionId: string,
  input: PlanChangeInput,
): Promise<PlanChangeQuote> {
  return quote(deps, caller, await ownSubscription(deps, caller, subscriptionId), input, deps.now());
}

export interface PlanChanged {
  subscription: SubscriptionRecord;
  /** The proration invoice, when the change made one. */
  invoice?: InvoiceRecord;
}

/**
 * Changes the subscription's plan (the new plan's pricing and metadata copied, as at creation).
 * `at_period_end`: the change is scheduled (`pendingPlanChange`, replacing one scheduled before)
 * and the period's close applies it. `now`: the plan switches at once (event
 * `subscription.plan_changed`) and, past a trial, the proration is invoiced in the same
 * transaction: one invoice with the credit and charge lines (less the credit balance), or, for a
 * net credit, no invoice and the credit added to the subscription's balance. The invoice is then
 * finalized like a period's, and answered as it stands. Decided from the subscription as read in the transaction, as the
 * preview decided from it; a retry with the key answers as the first call did.
 */
export async function changePlan(
  deps: BillingDeps,
  caller: CallerContext & { idempotencyKey: string },
  subscriptionId: string,
  input: PlanChangeInput,
): Promise<PlanChanged> {
  const result = await actOnce<PlanChanged>(deps.keys, caller, "changeSubscriptionPlan", subscriptionId, async (claim) => {
    const preview = await quote(deps, caller, await ownSubscription(deps, caller, subscriptionId), input, deps.now());
    // Refused before anything is written: the provider's hosted page would refuse the invoice
    // (PayMongo links under ₱100), now or for the new plan's periods.
    const { provider } = await chooseProvider(deps.providers, caller);
    provider.checkAmount?.({ flow: "hosted_payment", amount: { amountMinor: preview.plan.amountMinor, currency: preview.plan.currency } });
    if (preview.amountDueMinor > 0) provider.checkAmount?.({ flow: "hosted_payment", amount: { amountMinor: preview.amountDueMinor, currency: "PHP" } });
    return transactionRetryingConflicts(
      deps.store,
      async (session) => {
        const current = await ownSubscription(deps, caller, subscriptionId, session);
        const decided = await quote(deps, caller, current, { ...input, prorationDate: preview.prorationDate }, deps.now());
        const done = await writePlanChange(deps, session, current, decided);
        await claim(session, done);
        return done;
      },
      (error) => deps.invoices.isPeriodConflict(error),
    );
  });
  if (!result.invoice) return result;
  // Finalized after the commit, as a period's invoice is; answered as it now stands (open, with
  // its payment page, unless the provider failed and the clock will finalize it), replays too.
  if (result.invoice.status === "draft") await finalizeBilledInvoice(deps, result.invoice);
  return { ...result, invoice: (await deps.invoices.findByIdUnscoped(result.invoice._id)) ?? result.invoice };
}

async function writePlanChange(deps: BillingDeps, session: Session, subscription: SubscriptionRecord, decided: PlanChangeQuote): Promise<PlanChanged> {
  if (decided.prorate === "at_period_end") {
    const scheduled = await changeSubscription(deps, session, subscription, "plan_change_scheduled", {
      pendingPlanChange: pendingOf(decided.plan, deps.now()),
    });
    return { subscription: scheduled };
  }
  const pricing = switchedTo(pendingOf(decided.plan, deps.now()));
  if (decided.lines.length === 0) return { subscription: await changeSubscription(deps, session, subscription, "plan_changed", pricing) };
  const planChange = (subscription.planChanges ?? 0) + 1;
  const creditBalanceMinor = (subscription.creditBalanceMinor ?? 0) - decided.creditUsedMinor + decided.creditCarriedMinor;
  const changed = await changeSubscription(deps, session, subscription, "plan_changed", { ...pricing, planChanges: planChange, creditBalanceMinor });
  // A net credit (or nothing) is carried, not invoiced.
  if (decided.amountDueMinor === 0 && decided.creditUsedMinor === 0) return { subscription: changed };
  const now = deps.now();
  const invoice: InvoiceRecord = {
    _id: newId("inv"),
    projectId: subscription.projectId,
    environment: subscription.environment,
    subscriptionId: subscription._id,
    customerId: subscription.customerId,
    periodNumber: subscription.cyclesBilled,
    periodStart: decided.prorationDate,
    periodEnd: subscription.currentPeriodEnd,
    amountMinor: decided.amountDueMinor,
    currency: subscription.currency,
    lines: decided.lines,
    planChange,
    status: "draft",
    aggregateVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
  return { subscription: changed, invoice: await writeInvoice(deps, session, invoice) };
}
