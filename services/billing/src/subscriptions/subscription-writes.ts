import { writeMove, writeNextVersion, type ResourceMover } from "@bayad/events";
import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { mustLand, mustWriteChange, VersionConflict } from "../transactions.js";
import type { InvoiceRecord } from "../invoices/invoice.js";
import {
  subscriptionStates,
  subscriptionToProto,
  type SubscriptionAction,
  type SubscriptionRecord,
  type SubscriptionState,
} from "./subscription.js";
import { statusFollowingInvoices } from "./subscription-status.js";

/** How subscriptions are written: their collection, state table and events (`subscription.<verb>`). */
function subscriptionMover(deps: BillingDeps): ResourceMover<SubscriptionRecord, SubscriptionState, SubscriptionAction> {
  return {
    store: deps.store,
    collection: deps.subscriptions.collection,
    outbox: deps.outbox,
    states: subscriptionStates,
    resource: "subscription",
    snapshot: (record) => ({ case: "subscription", value: subscriptionToProto(record) }),
    now: deps.now,
  };
}

/** Writes a new subscription (version 1) with its event `subscription.created` inside `session`. */
export async function writeNewSubscription(deps: BillingDeps, session: Session, record: SubscriptionRecord): Promise<SubscriptionRecord> {
  const mover = subscriptionMover(deps);
  await mustWriteChange(session, {
    collection: mover.collection,
    outbox: mover.outbox,
    record,
    event: { name: `${mover.resource}.created`, caller: record, snapshot: mover.snapshot(record) },
  });
  return record;
}

/**
 * Writes the next version of `subscription` with `changes` and its event `subscription.<verb>`
 * inside `session`; VersionConflict aborts the transaction if it changed since it was read.
 */
export function changeSubscription(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  verb: string,
  changes: Partial<SubscriptionRecord>,
): Promise<SubscriptionRecord> {
  return mustLand(writeNextVersion(session, subscriptionMover(deps), subscription, verb, { extra: changes }), subscription);
}

/** Ends `subscription` at `endedAt` (event `subscription.cancelled`) inside `session`. */
export function endSubscription(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  endedAt: Date,
  changes: Partial<SubscriptionRecord> = {},
): Promise<SubscriptionRecord> {
  return mustLand(writeMove(session, subscriptionMover(deps), subscription, "end", { extra: { ...changes, endedAt } }), subscription);
}

/**
 * Dunning's final action `mark_unpaid` (event `subscription.unpaid`) inside `session`: the clock
 * bills no new period of an unpaid subscription until none of its invoices is overdue.
 */
export function markSubscriptionUnpaid(deps: BillingDeps, session: Session, subscription: SubscriptionRecord): Promise<SubscriptionRecord> {
  return mustLand(writeMove(session, subscriptionMover(deps), subscription, "mark_unpaid"), subscription);
}

/**
 * Writes the status `invoices` give the subscription (see subscription-status.ts) when it differs
 * from the one it has, with event `subscription.<status>`. Returns the subscription as it now is
 * (the same object when the status stays).
 *
 * An unpaid subscription that leaves `unpaid` (its overdue invoices paid) resumes billing with
 * its next period, which starts no earlier than now: the periods it spent unpaid were never
 * billed, and are not billed after the fact (its current period, if it has ended, closes now).
 */
export async function followInvoices(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  invoices: readonly InvoiceRecord[],
): Promise<SubscriptionRecord> {
  const status = statusFollowingInvoices(
    { ended: subscription.endedAt !== undefined, unpaid: subscription.status === "unpaid" },
    invoices.map((invoice) => invoice.status),
  );
  if (status === subscription.status) return subscription;
  const resumed = subscription.status === "unpaid" && status !== "cancelled";
  const now = deps.now();
  const periodEnd = resumed && subscription.currentPeriodEnd.getTime() < now.getTime() ? { currentPeriodEnd: now } : {};
  return changeSubscription(deps, session, subscription, status, { status, ...periodEnd });
}

/**
 * Re-derives a subscription's status from its invoices (as they stand in `session`, after the
 * caller's invoice changes) and moves it when the status differs. When it stays, the
 * subscription is still written (statusCheckedAt, guarded by its version), so that a transaction
 * changing its invoices conflicts with any other writing the subscription: two re-deriving it from
 * different invoice changes, or a period closing from invoices as they were before (under snapshot
 * isolation neither would otherwise see the other's change, port.ts).
 */
export async function settleSubscriptionStatus(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
): Promise<SubscriptionRecord> {
  const invoices = await deps.invoices.listForSubscription(subscription._id, session);
  const followed = await followInvoices(deps, session, subscription, invoices);
  if (followed !== subscription) return followed;
  const checkedAt = deps.now();
  if (!(await deps.subscriptions.markStatusChecked(subscription, checkedAt, session))) throw new VersionConflict(subscription._id);
  return { ...subscription, statusCheckedAt: checkedAt };
}
