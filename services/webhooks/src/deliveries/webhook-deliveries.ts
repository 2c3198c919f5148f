import { actOnce } from "@bayad/idempotency";
import { newId, notFound, pauseAfterLostRace, type CallerContext } from "@bayad/kit";
import { testEventType } from "@bayad/public-resources";
import type { Session } from "@bayad/store";
import { refuseProblems } from "../endpoints/endpoint-input.js";
import { getWebhookEndpoint, requireEnabled } from "../endpoints/webhook-endpoints.js";
import type { WebhookEndpointRecord } from "../endpoints/webhook-endpoint.js";
import { renderEvent, type RenderedEvent, type WebhookEventRecord } from "../events/webhook-event.js";
import { limitProblem, pageOf, type Page, type PageRequest } from "../paging/page.js";
import type { WebhooksDeps } from "../webhooks-deps.js";
import type { WebhookDeliveryRecord } from "./webhook-delivery.js";

type Scope = Pick<CallerContext, "projectId" | "environment">;
type Mutating = CallerContext & { idempotencyKey: string };

/** Event ids are evt_ and 24 characters; a longer filter cannot match one. */
const MAX_EVENT_ID_LENGTH = 64;

export interface ListDeliveriesInput extends PageRequest {
  /** Only this event's attempts, when not empty. */
  eventId: string;
}

/** Every attempt to deliver to one of the scope's endpoints (of one event when asked), newest first. */
export async function listWebhookDeliveries(
  deps: WebhooksDeps,
  caller: Scope,
  endpointId: string,
  input: ListDeliveriesInput,
): Promise<Page<WebhookDeliveryRecord>> {
  refuseProblems([input.eventId.length > MAX_EVENT_ID_LENGTH ? `eventId: must be at most ${MAX_EVENT_ID_LENGTH} characters` : undefined, limitProblem(input.limit)]);
  await getWebhookEndpoint(deps, caller, endpointId);
  const eventId = input.eventId !== "" ? input.eventId : undefined;
  const scope = ["webhook-deliveries", caller.projectId, caller.environment, endpointId, input.eventId];
  return pageOf(deps.cursors, scope, input, (after, limit) => deps.deliveries.findPage(caller, endpointId, eventId, after, limit));
}

/** How often the next attempt number is taken again after losing it to a concurrent scheduler. */
const ATTEMPT_NUMBER_RACES = 5;

/**
 * Schedules one more attempt of the event to the endpoint, due now: the next attempt number, in
 * a transaction of its own. Losing the number to a concurrent scheduler (a retry being scheduled,
 * another redelivery) takes the next one.
 */
async function scheduleNow(
  deps: WebhooksDeps,
  endpoint: WebhookEndpointRecord,
  event: Pick<WebhookEventRecord, "_id" | "type">,
  redelivery: boolean,
  also: (session: Session, delivery: WebhookDeliveryRecord) => Promise<void>,
): Promise<WebhookDeliveryRecord> {
  for (let race = 1; ; race++) {
    try {
      const delivery = await deps.store.transaction(async (session) => {
        const now = deps.now();
        const attempt = (await deps.deliveries.highestAttempt(endpoint._id, event._id, session)) + 1;
        const scheduled = await deps.deliveries.schedule(
          {
            webhookEndpointId: endpoint._id,
            eventId: event._id,
            eventType: event.type,
            projectId: endpoint.projectId,
            environment: endpoint.environment,
            attempt,
            redelivery,
            scheduledAt: now,
          },
          now,
          session,
        );
        await also(session, scheduled);
        return scheduled;
      });
      deps.scheduled();
      return delivery;
    } catch (error) {
      if (!deps.deliveries.isAttemptTaken(error) || race >= ATTEMPT_NUMBER_RACES) throw error;
      await pauseAfterLostRace(race);
    }
  }
}

/**
 * Delivers the event to the endpoint once more, now, with the same event id (webhook-id): one
 * attempt, numbered after every earlier one, not retried automatically. A retry with the key
 * answers with the attempt the first call scheduled.
 */
export async function redeliverWebhookEvent(deps: WebhooksDeps, caller: Mutating, endpointId: string, eventId: string): Promise<WebhookDeliveryRecord> {
  const deliveryId = await actOnce<string>(deps.keys, caller, "redeliverWebhookEvent", `${endpointId}/${eventId}`, async (claim) => {
    const endpoint = await getWebhookEndpoint(deps, caller, endpointId);
    const event = await deps.events.findById(caller, eventId);
    if (!event) throw notFound("event", eventId);
    requireEnabled(endpoint, "redelivered to");
    const scheduled = await scheduleNow(deps, endpoint, event, true, (session, delivery) => claim(session, delivery._id));
    return scheduled._id;
  });
  const delivery = await deps.deliveries.findById(caller, deliveryId);
  if (!delivery) throw notFound("webhook delivery", deliveryId);
  return delivery;
}

export interface TestDelivery {
  event: RenderedEvent;
  delivery: WebhookDeliveryRecord;
}

/**
 * Makes a `webhook.test` event for this endpoint alone (whatever it subscribes to) and schedules
 * its delivery now; it is retried like any other. Its data names the endpoint.
 */
export async function sendTestWebhookEvent(deps: WebhooksDeps, caller: Mutating, endpointId: string): Promise<TestDelivery> {
  const made = await actOnce<{ eventId: string; deliveryId: string }>(deps.keys, caller, "sendTestWebhookEvent", endpointId, async (claim) => {
    const endpoint = await getWebhookEndpoint(deps, caller, endpointId);
    requireEnabled(endpoint, "sent a test event");
    const now = deps.now();
    const event: WebhookEventRecord = {
      _id: newId("evt"),
      projectId: endpoint.projectId,
      environment: endpoint.environment,
      type: testEventType,
      resourceId: endpoint._id,
      createdAt: now,
      testData: JSON.stringify({ webhookEndpointId: endpoint._id }),
      expiresAt: new Date(now.getTime() + deps.config.eventRetentionMs),
    };
    const delivery = await scheduleNow(deps, endpoint, event, false, async (session, scheduled) => {
      await deps.events.insert(event, session);
      await claim(session, { eventId: event._id, deliveryId: scheduled._id });
    });
    return { eventId: event._id, deliveryId: delivery._id };
  });
  const [event, delivery] = await Promise.all([deps.events.findById(caller, made.eventId), deps.deliveries.findById(caller, made.deliveryId)]);
  if (!event) throw notFound("event", made.eventId);
  if (!delivery) throw notFound("webhook delivery", made.deliveryId);
  return { event: renderEvent(event, deps.publicUrl)!, delivery };
}
