import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { WebhookDeliverySchema, WebhookDeliveryStatus, type WebhookDelivery } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

export type WebhookDeliveryStatusText = "pending" | "succeeded" | "failed";

/**
 * One attempt to deliver one event to one endpoint, as the `webhook_deliveries` collection holds
 * it. A pending attempt is the dispatcher's work queue; a dispatcher claims it for a while
 * (claimedUntil, claimToken) so no other makes it at the same time, and records what happened.
 */
export interface WebhookDeliveryRecord {
  /** whd_… */
  _id: string;
  webhookEndpointId: string;
  eventId: string;
  eventType: string;
  projectId: string;
  environment: Environment;
  /** 1 for the first attempt, counting every attempt of the event to the endpoint (redeliveries too). */
  attempt: number;
  /** Asked for by a redelivery (never retried automatically). */
  redelivery: boolean;
  status: WebhookDeliveryStatusText;
  /** When it is due. */
  scheduledAt: Date;
  /** While a dispatcher makes it: until when its claim holds. */
  claimedUntil?: Date;
  /** The claim's holder: only it may record the outcome. */
  claimToken?: string;
  responseStatusCode?: number;
  durationMs?: number;
  error?: string;
  /** For a failed attempt: when the next one is scheduled. */
  nextAttemptAt?: Date;
  createdAt: Date;
  attemptedAt?: Date;
  /** Only finished attempts carry it (the store removes them after it); a pending one is never removed. */
  expiresAt?: Date;
}

const protoStatus = {
  pending: WebhookDeliveryStatus.PENDING,
  succeeded: WebhookDeliveryStatus.SUCCEEDED,
  failed: WebhookDeliveryStatus.FAILED,
} as const;

export function webhookDeliveryToProto(delivery: WebhookDeliveryRecord): WebhookDelivery {
  // A pending attempt's next attempt is itself.
  const next = delivery.status === "pending" ? delivery.scheduledAt : delivery.nextAttemptAt;
  return create(WebhookDeliverySchema, {
    deliveryId: delivery._id,
    webhookEndpointId: delivery.webhookEndpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    attempt: delivery.attempt,
    status: protoStatus[delivery.status],
    ...(delivery.responseStatusCode !== undefined ? { responseStatusCode: delivery.responseStatusCode } : {}),
    ...(delivery.durationMs !== undefined ? { durationMs: delivery.durationMs } : {}),
    error: delivery.error ?? "",
    ...(next ? { nextAttemptAt: timestampFromDate(next) } : {}),
    redelivery: delivery.redelivery,
    createdAt: timestampFromDate(delivery.createdAt),
    ...(delivery.attemptedAt ? { attemptedAt: timestampFromDate(delivery.attemptedAt) } : {}),
  });
}
