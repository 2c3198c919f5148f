import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { nextSchedule } from "../clock/billing-periods.js";
import { draftInvoice, invoiceStates, type InvoiceRecord } from "../invoices/invoice.js";
import { moveInvoice, writeInvoice } from "../invoices/invoice-writes.js";
import { transactionRetryingConflicts } from "../transactions.js";
import type { SubscriptionRecord } from "./subscription.js";
import { changeSubscription, endSubscription, followInvoices } from "./subscription-writes.js";
import { applyPendingPlanChange } from "../plan-changes/plan-changes.js";

export interface ClosedPeriod {
  /** The subscription after the close (or as someone else's close left it). */
  subscription: SubscriptionRecord;
  /** False when there was nothing to do: someone else closed the period, or it had ended. */
  closed: boolean;
  /** The draft invoice of the period just started: finalize it once this has committed. */
  billed?: InvoiceRecord;
}

/** Whether closing the current period ends the subscription rather than starting another. */
export function endsHere(subscription: SubscriptionRecord): boolean {
  const lastCycle = subscription.cycleCount > 0 && subscription.cyclesBilled >= subscription.cycleCount;
  return subscription.cancelAtPeriodEnd || lastCycle;
}

/** Records the Idempotency-Key of the request that asked for a close, with the subscription it answers with. */
export type CloseClaim = (session: Session, subscription: SubscriptionRecord) => Promise<void>;

/**
 * Ends `subscription` at `at` inside `session` (event `subscription.cancelled`). Whatever of
 * `invoices` (its invoices as read in `session`) is unpaid is voided straight away (not first
 * marked past due): nothing more will be collected on a subscription that has ended.
 */
export async function endWithin(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  invoices: readonly InvoiceRecord[],
  at: Date,
): Promise<SubscriptionRecord> {
  for (const invoice of invoices) {
    if (invoiceStates.can(invoice.status, "void")) await moveInvoice(deps, session, invoice, "void");
  }
  // A plan change scheduled for a period that will not come goes with it.
  return endSubscription(deps, session, subscription, at, { pendingPlanChange: null });
}

async function closeWithin(deps: BillingDeps, session: Session, subscription: SubscriptionRecord, at: Date): Promise<ClosedPeriod> {
  const period = subscription.cyclesBilled;
  const invoices = await deps.invoices.listForSubscription(subscription._id, session);

  if (endsHere(subscription)) return { subscription: await endWithin(deps, session, subscription, invoices, at), closed: true };

  // The period's invoice was due by its end.
  const closed: InvoiceRecord[] = [];
  for (const invoice of invoices) {
    const due = invoice.periodNumber === period && invoice.status === "open";
    closed.push(due ? await moveInvoice(deps, session, invoice, "fall_due") : invoice);
  }
  // Its own event when the status changes (a trial ending: trialing → pending, as no invoice is
  // paid yet); either way the renewal below writes the next version over the one read here, so a
  // concurrent invoice change conflicts with this close.
  const settled = await followInvoices(deps, session, subscription, closed);

  // A plan change scheduled for the period's end takes effect with the next period.
  const changed = settled.pendingPlanChange ? await applyPendingPlanChange(deps, session, settled, settled.pendingPlanChange) : settled;

  const next = nextSchedule(changed, period, at);
  const renewal = {
    cyclesBilled: period + 1,
    currentPeriodStart: next.period.start,
    currentPeriodEnd: next.period.end,
    billingAnchor: next.billingAnchor,
    anchorPeriod: next.anchorPeriod,
    // A trial that ends unannounced (the clock was down) is not announced afterwards.
    ...(changed.trialWillEndAt ? { trialWillEndAt: null } : {}),
  };
  const { invoice, creditUsedMinor } = draftInvoice({ ...changed, ...renewal }, next.period, deps.now());
  const renewed = await changeSubscription(deps, session, changed, "renewed", {
    ...renewal,
    ...(creditUsedMinor > 0 ? { creditBalanceMinor: (changed.creditBalanceMinor ?? 0) - creditUsedMinor } : {}),
  });
  const billed = await writeInvoice(deps, session, invoice);
  return { subscription: renewed, closed: true, billed };
}

/**
 * Closes `subscription`'s current period at `at`, in one transaction with an event for every
 * change: the period's open invoice falls past due and then either the subscription ends (its
 * cancellation was scheduled, or its last cycle is billed) and its unpaid invoices are voided,
 * or the next period starts at `at` with its own draft invoice and the status is re-derived. A
 * plan change scheduled for the period's end is applied before the next period is billed. The
 * close of a trial (period 0) starts period 1, billing its first invoice.
 *
 * `subscription` only says which period to close: the close is decided from the subscription as
 * read in the transaction, and does nothing if someone else (another clock, a test helper)
 * closed that period already. Every write is guarded by the version it was read at, and a second
 * invoice for a period breaks a unique index; either aborts the whole transaction, which is then
 * decided again. So concurrent closers bill each period once.
 *
 * `at` "now" (a test helper's advance) is read inside the transaction, after every close that
 * committed before it, and is later than the period's start: a close decided on a clock read
 * earlier started the next period at (or before) the start of the one it closed, so two
 * invoices billed one span. `claim`, when given, records the request's key in the same
 * transaction, whether it closed the period or found it closed.
 */
export function closePeriod(deps: BillingDeps, subscription: SubscriptionRecord, at: Date | "now", claim?: CloseClaim): Promise<ClosedPeriod> {
  return transactionRetryingConflicts(
    deps.store,
    async (session) => {
      const current = await deps.subscriptions.findByIdUnscoped(subscription._id, session);
      if (!current) throw new Error(`subscription ${subscription._id} disappeared while its period was being closed`);
      // An unpaid subscription bills no new period: only a scheduled end closes its period.
      const billingStopped = current.status === "unpaid" && !endsHere(current);
      const alreadyClosed = current.status === "cancelled" || billingStopped || current.cyclesBilled !== subscription.cyclesBilled;
      // Never at or before the period's start: the next period starts where this one closes.
      const closeAt = at === "now" ? new Date(Math.max(deps.now().getTime(), current.currentPeriodStart.getTime() + 1)) : at;
      const result = alreadyClosed ? { subscription: current, closed: false } : await closeWithin(deps, session, current, closeAt);
      await claim?.(session, result.subscription);
      return result;
    },
    (error) => deps.invoices.isPeriodConflict(error),
  );
}
