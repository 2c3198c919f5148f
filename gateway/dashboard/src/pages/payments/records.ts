import { request, type ActingFor } from "../../api/client";

/** One record of the payments records feed (GET /api/v1/payments/records), and a page of them. */
import type { PaymentRecord, PaymentRecordPage as RecordsPage } from "../../api/schemas";
export type { PaymentRecord, RecordsPage };

/** The feed's filters, as its query parameters. */
export interface RecordFilters {
  type?: string;
  status?: string;
  createdAfter?: string;
  createdBefore?: string;
  referenceId?: string;
  relatedResourceId?: string;
}

export const recordTypes: PaymentRecord["type"][] = ["checkout", "payment_intent", "refund", "subscription", "invoice", "payment_link"];

/** The largest page the feed gives. */
export const maxPageSize = 200;
/** How many pages a whole-set read (export, overview) walks at most: 10,000 records. */
export const maxPages = 50;

export function recordsPage(actingFor: ActingFor, filters: RecordFilters, cursor?: string, limit = 50): Promise<RecordsPage> {
  return request<RecordsPage>("/api/v1/payments/records", { actingFor, query: { ...filters, cursor, limit } });
}

/** Every record matching `filters`, following nextCursor, up to `maxPages` pages (`capped` then). */
export async function allRecords(actingFor: ActingFor, filters: RecordFilters): Promise<{ records: PaymentRecord[]; capped: boolean }> {
  const records: PaymentRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await recordsPage(actingFor, filters, cursor, maxPageSize);
    records.push(...answer.records);
    cursor = answer.nextCursor;
    if (!cursor) return { records, capped: false };
  }
  return { records, capped: true };
}
