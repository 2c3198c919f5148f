import type { Client } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  WebhookDeliveryStatusSchema,
  WebhookEndpointStatus,
  WebhookEndpointStatusSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhooksService,
} from "@bayad/proto";
import { AppError, enumToText, textToEnum } from "@bayad/kit";
import { dateField, optionalField, required } from "@bayad/public-resources";
import type { OperationHandlers } from "./operation.js";
import { timestampOfDateTime } from "./date-time.js";

function webhookEndpointToJson(endpoint: WebhookEndpoint | undefined) {
  const e = required(endpoint, "webhook endpoint");
  return {
    webhookEndpointId: e.webhookEndpointId,
    url: e.url,
    enabledEvents: [...e.enabledEvents],
    ...optionalField("description", e.description),
    metadata: { ...e.metadata },
    status: enumToText(WebhookEndpointStatusSchema, e.status),
    ...optionalField("disabledReason", e.disabledReason),
    createdAt: timestampDate(required(e.createdAt, "webhook endpoint's createdAt")).toISOString(),
    updatedAt: timestampDate(required(e.updatedAt, "webhook endpoint's updatedAt")).toISOString(),
  };
}

/**
 * An event as it is delivered: the service hands the resource as JSON text, and it is answered
 * here as JSON, in the delivered body's field order, so a listed event reads as what was posted.
 */
function eventToJson(event: WebhookEvent | undefined) {
  const e = required(event, "event");
  return {
    id: e.eventId,
    type: e.type,
    createdAt: timestampDate(required(e.createdAt, "event's createdAt")).toISOString(),
    environment: e.environment,
    data: JSON.parse(e.dataJson) as unknown,
  };
}

function deliveryToJson(delivery: WebhookDelivery | undefined) {
  const d = required(delivery, "webhook delivery");
  return {
    deliveryId: d.deliveryId,
    webhookEndpointId: d.webhookEndpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    attempt: d.attempt,
    status: enumToText(WebhookDeliveryStatusSchema, d.status),
    ...(d.responseStatusCode !== undefined ? { responseStatusCode: d.responseStatusCode } : {}),
    ...(d.durationMs !== undefined ? { durationMs: d.durationMs } : {}),
    ...optionalField("error", d.error),
    ...dateField("nextAttemptAt", d.nextAttemptAt),
    redelivery: d.redelivery,
    createdAt: timestampDate(required(d.createdAt, "webhook delivery's createdAt")).toISOString(),
    ...dateField("attemptedAt", d.attemptedAt),
  };
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
/** The validated page size; the document's default applies when absent. */
const limitOf = (value: unknown): number => (typeof value === "number" ? value : 0);
/** A date-time filter, to the nanosecond; the validator has checked its form already. */
function timestamp(value: unknown, parameter: string) {
  if (typeof value !== "string") return undefined;
  const parsed = timestampOfDateTime(value);
  if (!parsed) throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: [`${parameter}: must be a date-time`] });
  return parsed;
}

/** `{ [name]: value }` for a page's continuation, absent on the last page. */
const nextCursorOf = (cursor: string) => (cursor ? { nextCursor: cursor } : {});

/** Webhook endpoints, events and delivery attempts ⇄ WebhooksService rpcs. */
export function webhooksRoutes(webhooks: Client<typeof WebhooksService>): OperationHandlers {
  return {
    async createWebhookEndpoint({ body }, { call }) {
      const response = await webhooks.createWebhookEndpoint(
        {
          url: body.url as string,
          enabledEvents: body.enabledEvents as string[],
          description: (body.description as string | undefined) ?? "",
          metadata: (body.metadata as Record<string, string> | undefined) ?? {},
        },
        call,
      );
      return { status: 201, data: { ...webhookEndpointToJson(response.webhookEndpoint), secret: response.secret } };
    },

    async listWebhookEndpoints({ query }, { call }) {
      const response = await webhooks.listWebhookEndpoints({ limit: limitOf(query.limit), cursor: text(query.cursor) }, call);
      return {
        status: 200,
        data: { webhookEndpoints: response.webhookEndpoints.map(webhookEndpointToJson), ...nextCursorOf(response.nextCursor) },
      };
    },

    async getWebhookEndpoint({ params }, { call }) {
      const response = await webhooks.getWebhookEndpoint({ webhookEndpointId: params.webhookEndpointId }, call);
      return { status: 200, data: webhookEndpointToJson(response.webhookEndpoint) };
    },

    async updateWebhookEndpoint({ params, body }, { call }) {
      const response = await webhooks.updateWebhookEndpoint(
        {
          webhookEndpointId: params.webhookEndpointId,
          url: body.url as string | undefined,
          enabledEvents: body.enabledEvents === undefined ? undefined : { types: body.enabledEvents as string[] },
          description: body.description as string | undefined,
          status:
            body.status === undefined
              ? WebhookEndpointStatus.UNSPECIFIED
              : (textToEnum(WebhookEndpointStatusSchema, body.status as string)),
        },
        call,
      );
      return { status: 200, data: webhookEndpointToJson(response.webhookEndpoint) };
    },

    async deleteWebhookEndpoint({ params }, { call }) {
      const response = await webhooks.deleteWebhookEndpoint({ webhookEndpointId: params.webhookEndpointId }, call);
      return { status: 200, data: { ...webhookEndpointToJson(response.webhookEndpoint), deleted: true } };
    },

    async rotateWebhookEndpointSecret({ params }, { call }) {
      const response = await webhooks.rotateWebhookEndpointSecret({ webhookEndpointId: params.webhookEndpointId }, call);
      return {
        status: 200,
        data: {
          ...webhookEndpointToJson(response.webhookEndpoint),
          secret: response.secret,
          previousSecretExpiresAt: timestampDate(required(response.previousSecretExpiresAt, "previous secret's expiry")).toISOString(),
        },
      };
    },

    async sendTestWebhookEvent({ params }, { call }) {
      const response = await webhooks.sendTestWebhookEvent({ webhookEndpointId: params.webhookEndpointId }, call);
      return { status: 202, data: { event: eventToJson(response.event), delivery: deliveryToJson(response.delivery) } };
    },

    async listEvents({ query }, { call }) {
      const response = await webhooks.listEvents(
        {
          type: text(query.type),
          resourceId: text(query.resourceId),
          createdAfter: timestamp(query.createdAfter, "createdAfter"),
          createdBefore: timestamp(query.createdBefore, "createdBefore"),
          limit: limitOf(query.limit),
          cursor: text(query.cursor),
        },
        call,
      );
      return { status: 200, data: { events: response.events.map(eventToJson), ...nextCursorOf(response.nextCursor) } };
    },

    async getEvent({ params }, { call }) {
      const response = await webhooks.getEvent({ eventId: params.eventId }, call);
      return { status: 200, data: eventToJson(response.event) };
    },

    async listWebhookDeliveries({ params, query }, { call }) {
      const response = await webhooks.listWebhookDeliveries(
        {
          webhookEndpointId: params.webhookEndpointId,
          eventId: text(query.eventId),
          limit: limitOf(query.limit),
          cursor: text(query.cursor),
        },
        call,
      );
      return {
        status: 200,
        data: { deliveries: response.deliveries.map(deliveryToJson), ...nextCursorOf(response.nextCursor) },
      };
    },

    async redeliverWebhookEvent({ params }, { call }) {
      const response = await webhooks.redeliverWebhookEvent(
        { webhookEndpointId: params.webhookEndpointId, eventId: params.eventId },
        call,
      );
      return { status: 202, data: deliveryToJson(response.delivery) };
    },
  };
}
