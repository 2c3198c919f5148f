import type { InvoiceState } from "../invoices/invoice.js";
import type { SubscriptionState } from "./subscription.js";

/**
 * The status a subscription has, given whether it has ended, whether dunning marked it unpaid,
 * and the statuses of its invoices. This is the one rule: cancelled once ended; else, while any
 * invoice is past due, unpaid if it was marked so (dunning's final action) and past_due
 * otherwise; else active once any invoice is paid; else pending (nothing paid yet). So an unpaid
 * subscription stays unpaid until none of its invoices is overdue, and is active again then.
 */
export function statusFollowingInvoices(
  subscription: { ended: boolean; unpaid: boolean },
  invoices: readonly InvoiceState[],
): SubscriptionState {
  if (subscription.ended) return "cancelled";
  if (invoices.includes("past_due")) return subscription.unpaid ? "unpaid" : "past_due";
  if (invoices.includes("paid")) return "active";
  return "pending";
}
