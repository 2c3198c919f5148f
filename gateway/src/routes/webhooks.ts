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
import { enumToText, textToEnum } from "@bayad/kit";
import { dateField, optionalField, required } from "@bayad/public-resources";
import type { OperationHandlers } from "./operation.js";
import { dateTimeFilter } from "./date-time.js";

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
  const data: unknown = JSON.parse(e.dataJson);
  return {
    id: e.eventId,
    type: e.type,
    createdAt: timestampDate(required(e.createdAt, "event's createdAt")).toISOString(),
    environment: e.environment,
    data,
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

/** `{ [name]: value }` for a page's continuation, absent on the last page. */
const nextCursorOf = (cursor: string) => (cursor ? { nextCursor: cursor } : {});

/** Webhook endpoints, events and delivery attempts ⇄ WebhooksService rpcs. */
export function webhooksRoutes(webhooks: Client<typeof WebhooksService>): OperationHandlers {
  return {
    async createWebhookEndpoint({ body }, { call }) {
      const response = await webhooks.createWebhookEndpoint(
        {
          url: body.url,
          enabledEvents: body.enabledEvents,
          description: body.description ?? "",
          metadata: body.metadata ?? {},
        },
        call,
      );
      return { status: 201, data: { ...webhookEndpointToJson(response.webhookEndpoint), secret: response.secret } };
    },

    async listWebhookEndpoints({ query }, { call }) {
      const response = await webhooks.listWebhookEndpoints({ limit: query.limit ?? 0, cursor: query.cursor ?? "" }, call);
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
          url: body.url,
          enabledEvents: body.enabledEvents === undefined ? undefined : { types: body.enabledEvents },
          description: body.description,
          status: body.status === undefined ? WebhookEndpointStatus.UNSPECIFIED : textToEnum(WebhookEndpointStatusSchema, body.status),
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
          type: query.type ?? "",
          resourceId: query.resourceId ?? "",
          createdAfter: dateTimeFilter(query.createdAfter, "createdAfter"),
          createdBefore: dateTimeFilter(query.createdBefore, "createdBefore"),
          limit: query.limit ?? 0,
          cursor: query.cursor ?? "",
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
          eventId: query.eventId ?? "",
          limit: query.limit ?? 0,
          cursor: query.cursor ?? "",
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
