import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { WebhookEndpointStatus, type WebhooksService } from "@bayad/proto";
import { AppError, callerOf, mutatingCallerOf } from "@bayad/kit";
import { listWebhookDeliveries, redeliverWebhookEvent, sendTestWebhookEvent } from "./deliveries/webhook-deliveries.js";
import { webhookDeliveryToProto } from "./deliveries/webhook-delivery.js";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
} from "./endpoints/webhook-endpoints.js";
import { endpointView, webhookEndpointToProto, type WebhookEndpointStatusText } from "./endpoints/webhook-endpoint.js";
import { getEvent, listEvents } from "./events/webhook-events.js";
import { webhookEventToProto } from "./events/webhook-event.js";
import type { WebhooksDeps } from "./webhooks-deps.js";

function statusOf(status: WebhookEndpointStatus): WebhookEndpointStatusText | undefined {
  switch (status) {
    case WebhookEndpointStatus.UNSPECIFIED:
      return undefined;
    case WebhookEndpointStatus.ENABLED:
      return "enabled";
    case WebhookEndpointStatus.DISABLED:
      return "disabled";
    default:
      throw new AppError("VALIDATION_FAILED", undefined, { details: ["status: must be enabled or disabled"] });
  }
}

/** The WebhooksService rpc handlers: read the caller, call the domain, map to the response. */
export function createWebhooksService(deps: WebhooksDeps): ServiceImpl<typeof WebhooksService> {
  return {
    async createWebhookEndpoint(request, context) {
      const created = await createWebhookEndpoint(deps, mutatingCallerOf(context), {
        url: request.url,
        enabledEvents: request.enabledEvents,
        description: request.description,
        metadata: request.metadata,
      });
      return { webhookEndpoint: webhookEndpointToProto(created.endpoint), secret: created.secret };
    },

    async listWebhookEndpoints(request, context) {
      const page = await listWebhookEndpoints(deps, callerOf(context), { limit: request.limit, cursor: request.cursor });
      return { webhookEndpoints: page.items.map(webhookEndpointToProto), nextCursor: page.nextCursor ?? "" };
    },

    async getWebhookEndpoint(request, context) {
      const endpoint = await getWebhookEndpoint(deps, callerOf(context), request.webhookEndpointId);
      return { webhookEndpoint: webhookEndpointToProto(endpointView(endpoint)) };
    },

    async updateWebhookEndpoint(request, context) {
      const endpoint = await updateWebhookEndpoint(deps, mutatingCallerOf(context), request.webhookEndpointId, {
        url: request.url,
        enabledEvents: request.enabledEvents?.types,
        description: request.description,
        status: statusOf(request.status),
      });
      return { webhookEndpoint: webhookEndpointToProto(endpoint) };
    },

    async deleteWebhookEndpoint(request, context) {
      const endpoint = await deleteWebhookEndpoint(deps, mutatingCallerOf(context), request.webhookEndpointId);
      return { webhookEndpoint: webhookEndpointToProto(endpoint) };
    },

    async rotateWebhookEndpointSecret(request, context) {
      const rotated = await rotateWebhookEndpointSecret(deps, mutatingCallerOf(context), request.webhookEndpointId);
      return {
        webhookEndpoint: webhookEndpointToProto(rotated.endpoint),
        secret: rotated.secret,
        previousSecretExpiresAt: timestampFromDate(rotated.previousSecretExpiresAt),
      };
    },

    async sendTestWebhookEvent(request, context) {
      const sent = await sendTestWebhookEvent(deps, mutatingCallerOf(context), request.webhookEndpointId);
      return { event: webhookEventToProto(sent.event), delivery: webhookDeliveryToProto(sent.delivery) };
    },

    async listEvents(request, context) {
      const page = await listEvents(deps, callerOf(context), {
        type: request.type,
        resourceId: request.resourceId,
        createdAfter: request.createdAfter,
        createdBefore: request.createdBefore,
        limit: request.limit,
        cursor: request.cursor,
      });
      return { events: page.items.map(webhookEventToProto), nextCursor: page.nextCursor ?? "" };
    },

    async getEvent(request, context) {
      return { event: webhookEventToProto(await getEvent(deps, callerOf(context), request.eventId)) };
    },

    async listWebhookDeliveries(request, context) {
      const page = await listWebhookDeliveries(deps, callerOf(context), request.webhookEndpointId, {
        eventId: request.eventId,
        limit: request.limit,
        cursor: request.cursor,
      });
      return { deliveries: page.items.map(webhookDeliveryToProto), nextCursor: page.nextCursor ?? "" };
    },

    async redeliverWebhookEvent(request, context) {
      const delivery = await redeliverWebhookEvent(deps, mutatingCallerOf(context), request.webhookEndpointId, request.eventId);
      return { delivery: webhookDeliveryToProto(delivery) };
    },

    /** Operators only (the gateway's admin API), so no project scope: every endpoint's secrets, moved to SECRETS_KEYS' newest key. */
    async resealWebhookEndpointSecrets() {
      return { counts: await deps.endpoints.resealSecrets(deps.config.secretsKey) };
    },
  };
}
