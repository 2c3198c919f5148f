import { request, requestFile, type ActingFor } from "../../api/client";

/** One record of the payments records feed (GET /api/v1/payments/records), and a page of them. */
import type { PaymentRecord, PaymentRecordPage as RecordsPage } from "../../api/schemas";
export type { PaymentRecord, RecordsPage };

/** The feed's filters, as its query parameters (the export takes the same ones). */
export interface RecordFilters {
  type?: string;
  status?: string;
  createdAfter?: string;
  createdBefore?: string;
  referenceId?: string;
  relatedResourceId?: string;
  customerId?: string;
  /** `key=value`, split at the first "=". */
  metadata?: string;
  /** Integer centavos text, inclusive, on the signed amount (refunds are negative). */
  amountMin?: string;
  amountMax?: string;
  paymentMethod?: string;
  providerAccountId?: string;
}

export const recordTypes: PaymentRecord["type"][] = ["checkout", "payment_intent", "refund", "subscription", "invoice", "payment_link"];

/** Bayad's payment method names, as records carry them whatever the provider called the method. */
export const paymentMethods = ["card", "qrph", "gcash", "maya", "grabpay", "shopeepay", "online_banking"] as const;

export function recordsPage(actingFor: ActingFor, filters: RecordFilters, cursor?: string, limit = 50): Promise<RecordsPage> {
  return request<RecordsPage>("/api/v1/payments/records", { actingFor, query: { ...filters, cursor, limit } });
}

/** Every record matching `filters` as CSV, streamed by the gateway (GET /api/v1/payments/records/export). */
export function recordsExport(actingFor: ActingFor, filters: RecordFilters): Promise<Response> {
  return requestFile("/api/v1/payments/records/export", { actingFor, query: { ...filters }, accept: "text/csv" });
}
