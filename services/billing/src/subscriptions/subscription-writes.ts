import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { mustWriteChange, VersionConflict } from "../transactions.js";
import type { InvoiceRecord } from "../invoices/invoice.js";
import { subscriptionStates, subscriptionToProto, type SubscriptionRecord } from "./subscription.js";
import { actionLeadingTo, statusFollowingInvoices } from "./subscription-status.js";

/**
 * Writes the next version of a subscription with its event `subscription.<verb>` inside
 * `session`; VersionConflict aborts the transaction if it changed since it was read.
 */
export async function writeSubscription(
  deps: BillingDeps,
  session: Session,
  record: SubscriptionRecord,
  verb: string,
): Promise<SubscriptionRecord> {
  await mustWriteChange(session, {
    collection: deps.subscriptions.collection,
    outbox: deps.outbox,
    record,
    event: { name: `subscription.${verb}`, caller: record, snapshot: { case: "subscription", value: subscriptionToProto(record) } },
  });
  return record;
}

/** The next version of `subscription` with `changes`, dated now. */
export function nextVersion(deps: BillingDeps, subscription: SubscriptionRecord, changes: Partial<SubscriptionRecord>): SubscriptionRecord {
  return { ...subscription, ...changes, aggregateVersion: subscription.aggregateVersion + 1, updatedAt: deps.now() };
}

/**
 * Re-derives a subscription's status from its invoices (as they stand in `session`, after the
 * caller's invoice changes) and moves it when the status differs, with event
 * `subscription.<status>`. When it stays, the subscription is still written (statusCheckedAt,
 * guarded by its version), so that two transactions re-deriving one subscription from different
 * invoice changes conflict rather than both keep a status that neither change alone would alter.
 */
export async function settleSubscriptionStatus(
  deps: BillingDeps,
  session: Session,
  subscription: SubscriptionRecord,
  invoices?: readonly InvoiceRecord[],
): Promise<SubscriptionRecord> {
  const current = invoices ?? (await deps.invoices.listForSubscription(subscription._id, session));
  const status = statusFollowingInvoices(subscription.endedAt !== undefined, current.map((invoice) => invoice.status));
  if (status !== subscription.status) {
    const moved = subscriptionStates.next(subscription.status, actionLeadingTo(status));
    return writeSubscription(deps, session, nextVersion(deps, subscription, { status: moved, statusCheckedAt: deps.now() }), moved);
  }
  const checkedAt = deps.now();
  const touched = await deps.subscriptions.collection.updateOne(
    { _id: subscription._id, aggregateVersion: subscription.aggregateVersion },
    { $set: { statusCheckedAt: checkedAt } },
    { session },
  );
  if (touched.matched === 0) throw new VersionConflict(subscription._id);
  return { ...subscription, statusCheckedAt: checkedAt };
}
