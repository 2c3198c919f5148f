import { create, fromBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventSchema, WebhookEventSchema, type WebhookEvent } from "@bayad/proto";
import type { Environment } from "@bayad/kit";
import { publicEventOf, type PublicUrl } from "@bayad/public-resources";

/**
 * A public event as the `webhook_events` collection holds it: one per state change consumers are
 * told of (its id is the internal event's, the same on every delivery), or one per test request.
 * The resource is kept as the internal event carried it and rendered when read or delivered, so
 * its hosted-page URLs are made absolute with the public URL known then.
 */
export interface WebhookEventRecord {
  /** evt_… */
  _id: string;
  projectId: string;
  environment: Environment;
  /** The public type, e.g. checkout.paid, or webhook.test. */
  type: string;
  /** The resource the event is about (for webhook.test, the endpoint). */
  resourceId: string;
  /** When the change happened (the internal event's occurredAt). */
  createdAt: Date;
  /** The internal bayad.events.v1.Event, protobuf, base64. */
  event?: string;
  /** webhook.test's `data`, JSON text. */
  testData?: string;
  /** When the store removes it (WEBHOOK_EVENT_RETENTION after it arrived). */
  expiresAt: Date;
}

/** An event as it is delivered and listed: the body of a delivery is exactly this, as JSON. */
export interface RenderedEvent {
  id: string;
  type: string;
  createdAt: string;
  environment: string;
  data: Record<string, unknown>;
}

/** The event as consumers see it, or null when it cannot be rendered (an internal type no longer public). */
export function renderEvent(record: WebhookEventRecord, publicUrl: PublicUrl): RenderedEvent | null {
  let data: Record<string, unknown> | undefined;
  if (record.testData !== undefined) {
    data = JSON.parse(record.testData) as Record<string, unknown>;
  } else if (record.event !== undefined) {
    data = publicEventOf(fromBinary(EventSchema, Buffer.from(record.event, "base64")), publicUrl)?.data;
  }
  if (data === undefined) return null;
  // Field order is the body's: what a receiver hashes is what the API lists.
  return { id: record._id, type: record.type, createdAt: record.createdAt.toISOString(), environment: record.environment, data };
}

export function webhookEventToProto(event: RenderedEvent): WebhookEvent {
  return create(WebhookEventSchema, {
    eventId: event.id,
    type: event.type,
    createdAt: timestampFromDate(new Date(event.createdAt)),
    environment: event.environment,
    dataJson: JSON.stringify(event.data),
  });
}
