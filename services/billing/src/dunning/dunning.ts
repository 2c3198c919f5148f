import type { Session } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { BillingDeps } from "../billing-deps.js";
import { dueDateOf, type InvoiceRecord } from "../invoices/invoice.js";
import { writeDunningStep } from "../invoices/invoice-writes.js";
import type { BillingMessageRecord } from "../messages/billing-message.js";
import { deliverBillingMessage, stepMessages, type InvoiceMessagesDeps } from "../messages/invoice-messages.js";
import { reminderStep } from "../messages/templates/template.js";
import { endWithin } from "../subscriptions/close-period.js";
import { markSubscriptionUnpaid, settleSubscriptionStatus } from "../subscriptions/subscription-writes.js";
import { transactionRetryingConflicts } from "../transactions.js";
import { decideDunning, type DunningFinalAction } from "./dunning-schedule.js";

/** What dunning needs: billing, and its messages (absent without a payments service: steps are taken and announced, nothing is sent). */
export interface DunningDeps {
  billing: BillingDeps;
  messaging?: InvoiceMessagesDeps;
}

/** What one dunning run did. */
export interface DunningRun {
  /** Dunning steps taken: each a reminder (`invoice.reminder_sent`), its messages sent once. */
  remindersSent: number;
  /** Subscriptions marked unpaid or cancelled after an invoice's last step. */
  finalActions: number;
}

export interface DunningRunOptions {
  batchSize?: number;
  /** Only this project's invoices of this environment (a test helper running the clock). */
  scope?: Pick<CallerContext, "projectId" | "environment">;
  /** Renews the clock's lease between batches; false: another clock has it, so this run stops. */
  keepLease?: () => Promise<boolean>;
}

/**
 * Takes every dunning step due by `until`: the invoices whose `nextDunningAt` has come (found by
 * its index, never by a scan), each once per run. An invoice that failed is left for the next run.
 */
export async function runDunning(deps: DunningDeps, until: Date, options: DunningRunOptions = {}): Promise<DunningRun> {
  const batchSize = options.batchSize ?? 100;
  const run: DunningRun = { remindersSent: 0, finalActions: 0 };
  // Every invoice looked at in this run (taken, rescheduled, failed or changed meanwhile) is left for the next.
  const seen: string[] = [];
  for (;;) {
    const due = await deps.billing.invoices.findDunningDue(until, batchSize, seen, options.scope);
    for (const invoice of due) {
      seen.push(invoice._id);
      try {
        const taken = await dunInvoice(deps, invoice, until);
        if (taken.reminder) run.remindersSent += 1;
        if (taken.finalAction) run.finalActions += 1;
      } catch (error) {
        deps.billing.logger.error({ err: error, invoiceId: invoice._id }, "dunning step not taken");
      }
    }
    if (due.length < batchSize) break;
    if (options.keepLease && !(await options.keepLease())) break;
  }
  return run;
}

/**
 * The dunning of one invoice at `until`, by its project's schedule as it stands: of the steps not
 * taken yet, only the latest due is taken (after downtime the current reminder, not every missed
 * one). Taking it is one transaction: the step's messages claimed in `billing_messages` (one per
 * channel, their ids unique per invoice and step), the invoice's `dunningStep` counted up with
 * its next step's time and the event `invoice.reminder_sent`, and after the last step the final
 * action. So a step is taken once, whichever clock takes it, across restarts; the messages are
 * sent after the commit (failures are the messages' retry worker's).
 */
export async function dunInvoice(deps: DunningDeps, invoice: InvoiceRecord, until: Date): Promise<{ reminder: boolean; finalAction: boolean }> {
  const { billing, messaging } = deps;
  const none = { reminder: false, finalAction: false };
  if (invoice.status !== "open" && invoice.status !== "past_due") {
    await billing.invoices.rescheduleDunning(invoice, undefined);
    return none;
  }
  const { dunning } = await billing.settings.get(invoice.projectId);
  const decision = decideDunning(dunning, dueDateOf(invoice), invoice.dunningStep ?? 0, until);
  if (decision.kind === "wait") {
    // The schedule changed since the invoice's next step was set: nothing is due, it is moved.
    await billing.invoices.rescheduleDunning(invoice, decision.nextDunningAt);
    return none;
  }
  const subscription = await billing.subscriptions.findByIdUnscoped(invoice.subscriptionId);
  if (!subscription) throw new Error(`invoice ${invoice._id} has no subscription ${invoice.subscriptionId}`);
  const step = reminderStep(decision.offsetDays);
  const messages = messaging ? await unclaimed(messaging, await stepMessages(messaging, invoice, subscription, step, until)) : [];

  const outcome = await transactionRetryingConflicts(billing.store, async (session) => {
    const current = await billing.invoices.findByIdUnscoped(invoice._id, session);
    // Changed since decided (paid, or another clock took the step): the next run decides again.
    if (!current || current.aggregateVersion !== invoice.aggregateVersion) return undefined;
    for (const message of messages) await messaging!.messages.recordWithin(message, session);
    const stepped = await writeDunningStep(billing, session, current, decision.dunningStep, decision.nextDunningAt);
    return { finalAction: decision.final ? await takeFinalAction(billing, session, stepped, dunning.finalAction, until) : false };
  });
  if (!outcome) return none;
  billing.logger.info({ invoiceId: invoice._id, step, finalAction: outcome.finalAction }, "dunning step taken");
  for (const message of messages) {
    try {
      await deliverBillingMessage(messaging!, message);
    } catch (error) {
      billing.logger.warn({ err: error, messageId: message._id }, "reminder left for the retry worker");
    }
  }
  return { reminder: true, finalAction: outcome.finalAction };
}

/** Messages not claimed yet: a step whose offset came round again (its schedule changed) is not sent twice. */
async function unclaimed(messaging: InvoiceMessagesDeps, messages: BillingMessageRecord[]): Promise<BillingMessageRecord[]> {
  const fresh: BillingMessageRecord[] = [];
  for (const message of messages) if (!(await messaging.messages.findById(message._id))) fresh.push(message);
  return fresh;
}

/**
 * After an invoice's last step (inside its transaction): `mark_unpaid` makes its subscription
 * `unpaid` (event `subscription.unpaid`; no new period is billed until no invoice is overdue);
 * `cancel` ends it now as a cancellation at period end would (`subscription.cancelled`, its
 * unpaid invoices voided). True when the subscription changed so; a subscription already unpaid
 * or cancelled stays as it is.
 */
async function takeFinalAction(billing: BillingDeps, session: Session, invoice: InvoiceRecord, action: DunningFinalAction, at: Date): Promise<boolean> {
  const subscription = await billing.subscriptions.findByIdUnscoped(invoice.subscriptionId, session);
  if (!subscription || subscription.status === "cancelled") return false;
  if (action === "cancel") {
    await endWithin(billing, session, subscription, await billing.invoices.listForSubscription(subscription._id, session), at);
    return true;
  }
  if (subscription.status === "unpaid") {
    // The invoice may have fallen past due at its last step: the status is re-derived (and stays unpaid).
    await settleSubscriptionStatus(billing, session, subscription);
    return false;
  }
  await markSubscriptionUnpaid(billing, session, subscription);
  return true;
}
