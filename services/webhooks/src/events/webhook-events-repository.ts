import type { CallerContext, PagePosition } from "@bayad/kit";
import type { CollectionDef, Filter, Session, Store } from "@bayad/store";
import { continueAfter, listingOrder } from "../paging/page.js";
import type { WebhookEventRecord } from "./webhook-event.js";

/**
 * Listings filter on project and environment, optionally on type or resourceId (the resource the
 * event is about), then range and order on (createdAt, _id); events are removed
 * WEBHOOK_EVENT_RETENTION after they arrived.
 */
export const webhookEventsCollection: CollectionDef = {
  name: "webhook_events",
  indexes: [
    { name: "webhook_events_listing", keys: { projectId: 1, environment: 1, createdAt: -1, _id: -1 } },
    { name: "webhook_events_listing_type", keys: { projectId: 1, environment: 1, type: 1, createdAt: -1, _id: -1 } },
    { name: "webhook_events_listing_resource", keys: { projectId: 1, environment: 1, resourceId: 1, createdAt: -1, _id: -1 } },
    { name: "webhook_events_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

export interface EventsQuery {
  type?: string;
  /** The resource the events are about. */
  resourceId?: string;
  /** Inclusive. */
  createdAfter?: Date;
  /** Exclusive. */
  createdBefore?: Date;
}

/** The only code that knows the `webhook_events` collection. */
export function createWebhookEventsRepository(store: Store) {
  const events = store.collection<WebhookEventRecord>(webhookEventsCollection);
  return {
    findById(scope: Scope, eventId: string, session?: Session): Promise<WebhookEventRecord | null> {
      return events.findOne({ _id: eventId, projectId: scope.projectId, environment: scope.environment }, { session });
    },

    /** Unscoped: for the dispatcher, which holds an attempt that names its event. */
    findForDelivery(eventId: string): Promise<WebhookEventRecord | null> {
      return events.findOne({ _id: eventId });
    },

    /** Throws DuplicateKeyError (index `_id_`) when the event is stored already. */
    insert(record: WebhookEventRecord, session: Session): Promise<void> {
      return events.insertOne(record, { session });
    },

    /** Inserts the event; false when one with its id is stored already (nothing written). */
    async insertIfAbsent(record: WebhookEventRecord, session: Session): Promise<boolean> {
      // A duplicate key dooms the transaction, caught or not (the store port's contract, as on
      // MongoDB), and with it the rest of the consumer's batch: look first, in the transaction.
      if ((await events.findOne({ _id: record._id }, { session })) !== null) return false;
      await events.insertOne(record, { session });
      return true;
    },

    findPage(scope: Scope, query: EventsQuery, after: PagePosition | undefined, limit: number): Promise<WebhookEventRecord[]> {
      const filter: Filter = { projectId: scope.projectId, environment: scope.environment };
      if (query.type !== undefined) filter.type = query.type;
      if (query.resourceId !== undefined) filter.resourceId = query.resourceId;
      const createdAt: Record<string, Date> = {};
      if (query.createdAfter) createdAt.$gte = query.createdAfter;
      if (query.createdBefore) createdAt.$lt = query.createdBefore;
      if (Object.keys(createdAt).length > 0) filter.createdAt = createdAt;
      return events.find(continueAfter(filter, after), { sort: listingOrder, limit });
    },
  };
}

export type WebhookEventsRepository = ReturnType<typeof createWebhookEventsRepository>;
