import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  WebhookDeliveryStatus,
  WebhookEndpointStatus,
  type WebhookDeliverySchema,
  type WebhookEndpointSchema,
  type WebhookEventSchema,
  type WebhooksService,
} from "@bayad/proto";
import { AppError, callerOf, newId, type Environment } from "@bayad/kit";

type EndpointInit = MessageInitShape<typeof WebhookEndpointSchema>;
type EventInit = MessageInitShape<typeof WebhookEventSchema>;
type DeliveryInit = MessageInitShape<typeof WebhookDeliverySchema>;

interface Owned<T> {
  projectId: string;
  environment: Environment;
  value: T;
}

/**
 * A small WebhooksService for the gateway's own tests, served by kit's real gRPC server: it keeps
 * endpoints, events and attempts in memory per project and environment, answers the catalogue's
 * errors as the real service does (404 for ids of others, 409 for a disabled endpoint, 422 for a
 * refused URL: any URL whose host is `refused.example`), and keeps every request it was sent so
 * tests can see what the gateway asked. It delivers nothing: delivery is the service's own suite
 * and the platform's end-to-end suite.
 */
export function createWebhooksServiceDouble() {
  const endpoints = new Map<string, Owned<EndpointInit>>();
  const events = new Map<string, Owned<EventInit>>();
  const deliveries: Array<Owned<DeliveryInit>> = [];
  const requests: Array<{ method: string; request: unknown }> = [];
  let clock = Date.parse("2030-01-01T00:00:00.000Z");
  const now = () => timestampFromDate(new Date((clock += 1000)));

  const seen = (method: string, request: unknown) => requests.push({ method, request: structuredClone(request) });
  const mine = <T>(item: Owned<T> | undefined, context: HandlerContext): item is Owned<T> => {
    const caller = callerOf(context);
    return item !== undefined && item.projectId === caller.projectId && item.environment === caller.environment;
  };
  const endpointOf = (id: string, context: HandlerContext): EndpointInit => {
    const found = endpoints.get(id);
    if (!mine(found, context)) throw new AppError("RESOURCE_NOT_FOUND", `No webhook endpoint with id ${id}.`);
    return found.value;
  };
  const enabled = (endpoint: EndpointInit) => {
    if (endpoint.status !== WebhookEndpointStatus.ENABLED) {
      throw new AppError("INVALID_STATE_TRANSITION", "A disabled webhook endpoint cannot be sent events.");
    }
  };
  const checkUrl = (url: string) => {
    if (new URL(url).hostname === "refused.example") {
      throw new AppError("WEBHOOK_URL_NOT_ALLOWED", undefined, { details: ["url: refused.example resolves to a private address"] });
    }
  };
  const secret = () => `whsec_${Buffer.from(newId("we")).toString("base64")}`;
  const schedule = (endpoint: EndpointInit, event: EventInit, context: HandlerContext, redelivery: boolean): DeliveryInit => {
    const caller = callerOf(context);
    const attempts = deliveries.filter((d) => d.value.webhookEndpointId === endpoint.webhookEndpointId && d.value.eventId === event.eventId);
    const created = now();
    const delivery: DeliveryInit = {
      deliveryId: newId("whd"),
      webhookEndpointId: endpoint.webhookEndpointId,
      eventId: event.eventId,
      eventType: event.type,
      attempt: attempts.length + 1,
      status: WebhookDeliveryStatus.PENDING,
      nextAttemptAt: created,
      redelivery,
      createdAt: created,
    };
    deliveries.push({ projectId: caller.projectId, environment: caller.environment, value: delivery });
    return delivery;
  };

  const service: ServiceImpl<typeof WebhooksService> = {
    createWebhookEndpoint(request, context) {
      seen("createWebhookEndpoint", request);
      checkUrl(request.url);
      const caller = callerOf(context);
      const at = now();
      const endpoint: EndpointInit = {
        webhookEndpointId: newId("we"),
        url: request.url,
        enabledEvents: request.enabledEvents,
        description: request.description,
        metadata: request.metadata,
        status: WebhookEndpointStatus.ENABLED,
        createdAt: at,
        updatedAt: at,
      };
      endpoints.set(endpoint.webhookEndpointId!, { projectId: caller.projectId, environment: caller.environment, value: endpoint });
      return { webhookEndpoint: endpoint, secret: secret() };
    },
    listWebhookEndpoints(request, context) {
      seen("listWebhookEndpoints", request);
      const own = [...endpoints.values()].filter((e) => mine(e, context)).map((e) => e.value).reverse();
      return { webhookEndpoints: own.slice(0, request.limit), nextCursor: own.length > request.limit ? "next-page" : "" };
    },
    getWebhookEndpoint(request, context) {
      seen("getWebhookEndpoint", request);
      return { webhookEndpoint: endpointOf(request.webhookEndpointId, context) };
    },
    updateWebhookEndpoint(request, context) {
      seen("updateWebhookEndpoint", request);
      const endpoint = endpointOf(request.webhookEndpointId, context);
      if (request.url !== undefined) checkUrl(request.url);
      if (request.url !== undefined) endpoint.url = request.url;
      if (request.enabledEvents !== undefined) endpoint.enabledEvents = request.enabledEvents.types;
      if (request.description !== undefined) endpoint.description = request.description;
      if (request.status !== WebhookEndpointStatus.UNSPECIFIED) {
        endpoint.status = request.status;
        endpoint.disabledReason = "";
      }
      endpoint.updatedAt = now();
      return { webhookEndpoint: endpoint };
    },
    deleteWebhookEndpoint(request, context) {
      seen("deleteWebhookEndpoint", request);
      const endpoint = endpointOf(request.webhookEndpointId, context);
      endpoints.delete(request.webhookEndpointId);
      return { webhookEndpoint: endpoint };
    },
    rotateWebhookEndpointSecret(request, context) {
      seen("rotateWebhookEndpointSecret", request);
      const endpoint = endpointOf(request.webhookEndpointId, context);
      return { webhookEndpoint: endpoint, secret: secret(), previousSecretExpiresAt: timestampFromDate(new Date(clock + 86_400_000)) };
    },
    sendTestWebhookEvent(request, context) {
      seen("sendTestWebhookEvent", request);
      const endpoint = endpointOf(request.webhookEndpointId, context);
      enabled(endpoint);
      const caller = callerOf(context);
      const event: EventInit = {
        eventId: newId("evt"),
        type: "webhook.test",
        createdAt: now(),
        environment: caller.environment,
        dataJson: JSON.stringify({ webhookEndpointId: endpoint.webhookEndpointId, message: "A test event from Bayad." }),
      };
      events.set(event.eventId!, { projectId: caller.projectId, environment: caller.environment, value: event });
      return { event, delivery: schedule(endpoint, event, context, false) };
    },
    listEvents(request, context) {
      seen("listEvents", request);
      const own = [...events.values()]
        .filter((e) => mine(e, context) && (request.type === "" || e.value.type === request.type))
        .map((e) => e.value)
        .reverse();
      return { events: own.slice(0, request.limit), nextCursor: own.length > request.limit ? "next-page" : "" };
    },
    getEvent(request, context) {
      seen("getEvent", request);
      const found = events.get(request.eventId);
      if (!mine(found, context)) throw new AppError("RESOURCE_NOT_FOUND", `No event with id ${request.eventId}.`);
      return { event: found.value };
    },
    listWebhookDeliveries(request, context) {
      seen("listWebhookDeliveries", request);
      endpointOf(request.webhookEndpointId, context);
      const own = deliveries
        .filter((d) => d.value.webhookEndpointId === request.webhookEndpointId && (request.eventId === "" || d.value.eventId === request.eventId))
        .map((d) => d.value)
        .reverse();
      return { deliveries: own.slice(0, request.limit), nextCursor: own.length > request.limit ? "next-page" : "" };
    },
    redeliverWebhookEvent(request, context) {
      seen("redeliverWebhookEvent", request);
      const endpoint = endpointOf(request.webhookEndpointId, context);
      const found = events.get(request.eventId);
      if (!mine(found, context)) throw new AppError("RESOURCE_NOT_FOUND", `No event with id ${request.eventId}.`);
      enabled(endpoint);
      return { delivery: schedule(endpoint, found.value, context, true) };
    },
    resealWebhookEndpointSecrets(request) {
      seen("resealWebhookEndpointSecrets", request);
      // The double keeps no sealed secrets: every endpoint counts as already under the newest key.
      return { counts: { resealed: 0, current: endpoints.size, unreadable: 0 } };
    },
  };

  return {
    service,
    /** What the gateway sent, oldest first. */
    requests,
    /** Records an event of a project, as the service's consumer would from the events stream. */
    addEvent(projectId: string, environment: Environment, type: string, data: unknown): string {
      const event: EventInit = { eventId: newId("evt"), type, createdAt: now(), environment, dataJson: JSON.stringify(data) };
      events.set(event.eventId!, { projectId, environment, value: event });
      return event.eventId!;
    },
    /** Marks an endpoint disabled by Bayad, as a 410 from its receiver would. */
    disable(webhookEndpointId: string, reason: "gone" | "failing") {
      const endpoint = endpoints.get(webhookEndpointId)!.value;
      endpoint.status = WebhookEndpointStatus.DISABLED;
      endpoint.disabledReason = reason;
    },
  };
}
