import type { InvoiceState } from "../invoices/invoice.js";
import type { SubscriptionAction, SubscriptionState } from "./subscription.js";

/**
 * The status a subscription has, given whether it has ended and the statuses of its invoices.
 * This is the one rule: cancelled once ended; else past_due while any invoice is past due; else
 * active once any invoice is paid; else pending (nothing paid yet).
 */
export function statusFollowingInvoices(ended: boolean, invoices: readonly InvoiceState[]): SubscriptionState {
  if (ended) return "cancelled";
  if (invoices.includes("past_due")) return "past_due";
  if (invoices.includes("paid")) return "active";
  return "pending";
}

const actionTo: Record<Exclude<SubscriptionState, "pending">, SubscriptionAction> = {
  active: "activate",
  past_due: "fall_behind",
  cancelled: "end",
};

/** The state-table action that moves a subscription to `status` (none leads back to pending). */
export function actionLeadingTo(status: SubscriptionState): SubscriptionAction {
  if (status === "pending") throw new Error("no subscription move leads back to pending");
  return actionTo[status];
}
