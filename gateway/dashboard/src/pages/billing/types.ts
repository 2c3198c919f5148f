/** The billing and links resources as the gateway answers them (gateway/openapi/openapi.yaml, Payments). */

export interface Money {
  amountMinor: number;
  currency: "PHP";
}

export interface PaymentLink {
  paymentLinkId: string;
  referenceId: string;
  amount: Money;
  status: "active" | "archived" | "paid";
  description?: string;
  remarks?: string;
  url?: string;
  referenceNumber?: string;
  active?: boolean;
  archived?: boolean;
  metadata?: Record<string, string>;
  createdAt?: string;
  updatedAt?: string;
}

export interface Plan {
  planId: string;
  name: string;
  /** Centavos per period (a plain integer). */
  amount: number;
  currency: "PHP";
  interval: "weekly" | "monthly" | "yearly";
  intervalCount: number;
  /** Absent when billing continues indefinitely. */
  cycleCount?: number;
  description?: string;
  metadata?: Record<string, string>;
}

export interface Subscription {
  subscriptionId: string;
  customerId: string;
  status: "pending" | "active" | "past_due" | "cancelled";
  priceId?: string;
  referenceId?: string;
  currentPeriodStart?: string;
  currentPeriodEnd?: string;
  cancelAtPeriodEnd?: boolean;
}

export interface Invoice {
  invoiceId: string;
  status: "draft" | "open" | "paid" | "past_due" | "void";
  amount: Money;
  subscriptionId?: string;
  periodStart?: string;
  periodEnd?: string;
  hostedInvoiceUrl?: string;
}

/** A subscription as the records feed lists it: its latest status, its customer as the related resource. */
export interface SubscriptionRecord {
  id: string;
  referenceId: string | null;
  relatedResourceId: string | null;
  amountMinor: string | null;
  status: string | null;
  createdAt: string;
}

export const billingPaths = {
  paymentLinks: "/api/v1/payments/payment-links",
  plans: "/api/v1/payments/plans",
  subscriptions: "/api/v1/payments/subscriptions",
  invoices: "/api/v1/payments/invoices",
  records: "/api/v1/payments/records",
};

export const resourcePath = (collection: string, id: string) => `${collection}/${encodeURIComponent(id)}`;
