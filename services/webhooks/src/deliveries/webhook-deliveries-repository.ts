import { randomUUID } from "node:crypto";
import { newId, type CallerContext, type PagePosition } from "@bayad/kit";
import { isDuplicateKeyError, type CollectionDef, type Filter, type Session, type Store, type Update } from "@bayad/store";
import { continueAfter, listingOrder } from "../paging/page.js";
import type { WebhookDeliveryRecord } from "./webhook-delivery.js";

/**
 * One attempt number per event and endpoint, so an attempt is never scheduled twice; the due
 * queue (pending by scheduledAt); the listings of an endpoint's attempts, all or one event's;
 * finished attempts are removed WEBHOOK_EVENT_RETENTION after they were made.
 */
export const webhookDeliveriesCollection: CollectionDef = {
  name: "webhook_deliveries",
  indexes: [
    { name: "webhook_deliveries_attempt", keys: { webhookEndpointId: 1, eventId: 1, attempt: 1 }, unique: true },
    { name: "webhook_deliveries_due", keys: { status: 1, scheduledAt: 1 } },
    { name: "webhook_deliveries_listing", keys: { webhookEndpointId: 1, createdAt: -1, _id: -1 } },
    { name: "webhook_deliveries_listing_event", keys: { webhookEndpointId: 1, eventId: 1, createdAt: -1, _id: -1 } },
    { name: "webhook_deliveries_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** What a new pending attempt needs; the rest is set here. */
export type NewAttempt = Pick<
  WebhookDeliveryRecord,
  "webhookEndpointId" | "eventId" | "eventType" | "projectId" | "environment" | "attempt" | "redelivery" | "scheduledAt"
>;

/** A claimed attempt: only the holder of its token records its outcome. */
export type ClaimedAttempt = WebhookDeliveryRecord & { claimToken: string; claimedUntil: Date };

/** The only code that knows the `webhook_deliveries` collection. */
export function createWebhookDeliveriesRepository(store: Store) {
  const deliveries = store.collection<WebhookDeliveryRecord>(webhookDeliveriesCollection);
  return {
    /** Inserts a pending attempt; DuplicateKeyError (webhook_deliveries_attempt) when its number is taken. */
    async schedule(attempt: NewAttempt, now: Date, session: Session): Promise<WebhookDeliveryRecord> {
      const record: WebhookDeliveryRecord = { _id: newId("whd"), ...attempt, status: "pending", createdAt: now };
      await deliveries.insertOne(record, { session });
      return record;
    },

    /** Whether `error` is a lost race for an attempt number. */
    isAttemptTaken: (error: unknown) => isDuplicateKeyError(error, "webhook_deliveries_attempt"),

    /** The highest attempt number of the event to the endpoint so far (0 when none). */
    async highestAttempt(endpointId: string, eventId: string, session?: Session): Promise<number> {
      const [last] = await deliveries.find({ webhookEndpointId: endpointId, eventId }, { sort: { attempt: -1 }, limit: 1, session });
      return last?.attempt ?? 0;
    },

    /** How many automatic (not redelivery) attempts the event has had to the endpoint, this one included. */
    automaticAttempts(endpointId: string, eventId: string, session: Session): Promise<number> {
      return deliveries.count({ webhookEndpointId: endpointId, eventId, redelivery: false }, { session });
    },

    findById(scope: Scope, deliveryId: string): Promise<WebhookDeliveryRecord | null> {
      return deliveries.findOne({ _id: deliveryId, projectId: scope.projectId, environment: scope.environment });
    },

    /**
     * Claims the longest-due pending attempt until `until`: one atomic step, so two dispatchers
     * never hold one attempt at once. An attempt whose claim ran out (its dispatcher stopped or
     * crashed mid-attempt) is due again.
     */
    claimDue(now: Date, until: Date): Promise<ClaimedAttempt | null> {
      return deliveries.findOneAndUpdate(
        { status: "pending", scheduledAt: { $lte: now }, $or: [{ claimedUntil: { $exists: false } }, { claimedUntil: { $lt: now } }] },
        { $set: { claimedUntil: until, claimToken: randomUUID() } },
        { sort: { scheduledAt: 1 }, returnDocument: "after" },
      ) as Promise<ClaimedAttempt | null>;
    },

    /** Records what a claimed attempt did, if the claim is still the caller's; whether it was. */
    async finish(claimed: ClaimedAttempt, set: Partial<WebhookDeliveryRecord>, session: Session): Promise<boolean> {
      const update: Update = { $set: set, $unset: { claimedUntil: true, claimToken: true } };
      return (await deliveries.updateOne({ _id: claimed._id, status: "pending", claimToken: claimed.claimToken }, update, { session })).matched === 1;
    },

    /** The oldest due pending attempt's scheduled time (for the oldest-pending metric). */
    async oldestDue(now: Date): Promise<Date | undefined> {
      const [oldest] = await deliveries.find({ status: "pending", scheduledAt: { $lte: now } }, { sort: { scheduledAt: 1 }, limit: 1 });
      return oldest?.scheduledAt;
    },

    /** A page of an endpoint's attempts (of one event when given), newest first. */
    findPage(scope: Scope, endpointId: string, eventId: string | undefined, after: PagePosition | undefined, limit: number) {
      const filter: Filter = { webhookEndpointId: endpointId, projectId: scope.projectId, environment: scope.environment };
      if (eventId !== undefined) filter.eventId = eventId;
      return deliveries.find(continueAfter(filter, after), { sort: listingOrder, limit });
    },
  };
}

export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
