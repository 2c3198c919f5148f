import type { InvoiceState } from "../invoices/invoice.js";
import type { SubscriptionState } from "./subscription.js";

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
