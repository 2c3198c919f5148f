import type { PaymentRecord, RecordsPage } from "./records";
import type { PaymentResource } from "./payment-resource";
import type { ProjectRequest } from "./project-request";

/** An event as listEvents answers it: the body delivered to consumers. */
export interface BayadEvent {
  id: string;
  type: string;
  createdAt: string;
  environment: string;
  data: Record<string, unknown>;
}

/** What happened to a payment: its feed record, its refunds, and the events of both. */
export interface PaymentHistory {
  /** The payment's own record (its creation time), when the feed has it yet. */
  record?: PaymentRecord;
  refunds: PaymentRecord[];
  /** Events of the payment and of its refunds, oldest first. */
  events: BayadEvent[];
}

const maxPages = 10;

async function pages<Item>(read: (cursor?: string) => Promise<{ items: Item[]; nextCursor?: string }>): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await read(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return items;
}

export function eventsOf(request: ProjectRequest, resourceId: string): Promise<BayadEvent[]> {
  return pages(async (cursor) => {
    const page = await request<{ events: BayadEvent[]; nextCursor?: string }>("/api/v1/events", { query: { resourceId, limit: 100, cursor } });
    return { items: page.events, nextCursor: page.nextCursor };
  });
}

function records(request: ProjectRequest, query: Record<string, string>): Promise<PaymentRecord[]> {
  return pages(async (cursor) => {
    const page = await request<RecordsPage>("/api/v1/payments/records", { query: { ...query, limit: 200, cursor } });
    return { items: page.records, nextCursor: page.nextCursor };
  });
}

/**
 * A checkout's or intent's record is found by its reference; a refund's (which has none) among
 * its payment's refunds.
 */
export async function fetchHistory(request: ProjectRequest, resource: PaymentResource): Promise<PaymentHistory> {
  const { id } = resource;
  const isRefund = resource.kind === "refund";
  const [own, refunds, events] = await Promise.all([
    isRefund && resource.paymentId
      ? records(request, { relatedResourceId: resource.paymentId, type: "refund" })
      : resource.referenceId
        ? records(request, { referenceId: resource.referenceId })
        : Promise.resolve([]),
    isRefund ? Promise.resolve([]) : records(request, { relatedResourceId: id, type: "refund" }),
    eventsOf(request, id),
  ]);
  const refundEvents = await Promise.all(refunds.map((refund) => eventsOf(request, refund.id)));
  return {
    record: own.find((record) => record.id === id),
    refunds,
    events: [...events, ...refundEvents.flat()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
  };
}
