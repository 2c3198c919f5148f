/** The billing and links resources as the gateway answers them (gateway/openapi/openapi.yaml, Payments). */
import type { PaymentRecord } from "../../api/schemas";
export type { BillingSettings, BillingSettingsPutRequest, DevMessage, DunningSchedule, Invoice, MessageLocale, Money, PaymentLink, Plan, Subscription } from "../../api/schemas";

/** A subscription as the records feed lists it: its latest status, its customer as the related resource. */
export type SubscriptionRecord = Pick<PaymentRecord, "id" | "referenceId" | "relatedResourceId" | "amountMinor" | "status" | "createdAt">;

export const billingPaths = {
  paymentLinks: "/api/v1/payments/payment-links",
  plans: "/api/v1/payments/plans",
  subscriptions: "/api/v1/payments/subscriptions",
  invoices: "/api/v1/payments/invoices",
  records: "/api/v1/payments/records",
};

export const resourcePath = (collection: string, id: string) => `${collection}/${encodeURIComponent(id)}`;
