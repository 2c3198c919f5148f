import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { nextSchedule } from "../clock/billing-periods.js";
import { draftInvoice, invoiceStates, type InvoiceRecord } from "../invoices/invoice.js";
import { moveInvoice, writeInvoice } from "../invoices/invoice-writes.js";
import { transactionRetryingConflicts } from "../transactions.js";
import { subscriptionStates, type SubscriptionRecord } from "./subscription.js";
import { nextVersion, settleSubscriptionStatus, writeSubscription } from "./subscription-writes.js";

export interface ClosedPeriod {
  /** The subscription after the close (or as someone else's close left it). */
  subscription: SubscriptionRecord;
  /** False when there was nothing to do: someone else closed the period, or it had ended. */
  closed: boolean;
  /** The draft invoice of the period just started: finalize it once this has committed. */
  billed?: InvoiceRecord;
}

/** Whether closing the current period ends the subscription rather than starting another. */
function endsHere(subscription: SubscriptionRecord): boolean {
  const lastCycle = subscription.cycleCount > 0 && subscription.cyclesBilled >= subscription.cycleCount;
  return subscription.cancelAtPeriodEnd || lastCycle;
}

async function closeWithin(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  closedAt: Date,
  nextStart: Date,
): Promise<ClosedPeriod> {
  const period = subscription.cyclesBilled;
  const invoices = await deps.invoices.listForSubscription(subscription._id, session);

  if (endsHere(subscription)) {
    // Whatever is unpaid is voided straight away (not first marked past due): nothing more will
    // be collected on a subscription that has ended.
    for (const invoice of invoices) {
      if (invoiceStates.can(invoice.status, "void")) await moveInvoice(deps, session, invoice, "void");
    }
    const status = subscriptionStates.next(subscription.status, "end");
    const ended = nextVersion(deps, subscription, { status, endedAt: closedAt, statusCheckedAt: deps.now() });
    return { subscription: await writeSubscription(deps, session, ended, status), closed: true };
  }

  // The period's invoice was due by its end.
  const closed: InvoiceRecord[] = [];
  for (const invoice of invoices) {
    const due = invoice.periodNumber === period && invoice.status === "open";
    closed.push(due ? await moveInvoice(deps, session, invoice, "fall_due") : invoice);
  }
  const settled = await settleSubscriptionStatus(deps, session, subscription, closed);

  const next = nextSchedule(settled, period, nextStart);
  const renewed = nextVersion(deps, settled, {
    cyclesBilled: period + 1,
    currentPeriodStart: next.period.start,
    currentPeriodEnd: next.period.end,
    billingAnchor: next.billingAnchor,
    anchorPeriod: next.anchorPeriod,
  });
  await writeSubscription(deps, session, renewed, "renewed");
  const billed = await writeInvoice(deps, session, draftInvoice(renewed, next.period, deps.now()));
  return { subscription: renewed, closed: true, billed };
}

/**
 * Closes `subscription`'s current period at `closedAt`, in one transaction with an event for
 * every change: the period's open invoice falls past due and then either the subscription ends
 * (its cancellation was scheduled, or its last cycle is billed) and its unpaid invoices are
 * voided, or the next period starts at `nextStart` with its own draft invoice and the status is
 * re-derived.
 *
 * `subscription` may be stale. Every write is guarded by the version it was read at, and a
 * second invoice for a period breaks a unique index; either aborts the whole transaction, and
 * the close is decided again from a fresh read, which does nothing if someone else (another
 * clock, a test helper) closed the period meanwhile. So concurrent closers bill each period once.
 */
export function closePeriod(
  deps: BillingDeps,
  subscription: SubscriptionRecord,
  closedAt: Date,
  nextStart: Date,
): Promise<ClosedPeriod> {
  let attempts = 0;
  return transactionRetryingConflicts(
    deps.store,
    async (session) => {
      const current =
        attempts++ === 0 ? subscription : await deps.subscriptions.findByIdUnscoped(subscription._id, session);
      if (!current) throw new Error(`subscription ${subscription._id} disappeared while its period was being closed`);
      const alreadyClosed = current.status === "cancelled" || current.cyclesBilled !== subscription.cyclesBilled;
      if (alreadyClosed) return { subscription: current, closed: false };
      return closeWithin(deps, session, current, closedAt, nextStart);
    },
    (error) => deps.invoices.isPeriodConflict(error),
  );
}
