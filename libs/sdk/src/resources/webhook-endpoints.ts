import type { CallOptions, Transport } from "../transport.js";
import { unwrap } from "../transport.js";
import type { ListQuery, RequestBody, Schema } from "../operation-types.js";
import { PageIterator } from "../pagination.js";

export type WebhookEndpoint = Schema<"WebhookEndpoint">;
export type WebhookDelivery = Schema<"WebhookDelivery">;
/** A new endpoint, with its signing `secret` (shown on create and rotation only). */
export type CreatedWebhookEndpoint = Schema<"WebhookEndpointWithSecret">;

/** Webhook endpoints, their secrets, test events and delivery attempts. */
export class WebhookEndpoints {
  readonly #t: Transport;

  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** Every endpoint, newest first, page after page (`limit` is the page size). */
  list(query: ListQuery<"listWebhookEndpoints"> = {}, options?: CallOptions): PageIterator<WebhookEndpoint> {
    return new PageIterator(async (cursor) => {
      const { fetch } = this.#t.read(options);
      const page = await unwrap(this.#t.api.GET("/api/v1/webhook-endpoints", { params: { query: { ...query, cursor } }, fetch }));
      return { items: page.webhookEndpoints, nextCursor: page.nextCursor };
    });
  }

  /** Registers an endpoint; the answer's `secret` (`whsec_…`) is shown this once: keep it for webhooks.verify. */
  create(body: RequestBody<"createWebhookEndpoint">, options?: CallOptions): Promise<CreatedWebhookEndpoint> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/webhook-endpoints", { body, params: { header }, fetch }));
  }

  get(webhookEndpointId: string, options?: CallOptions): Promise<WebhookEndpoint> {
    const { fetch } = this.#t.read(options);
    return unwrap(this.#t.api.GET("/api/v1/webhook-endpoints/{webhookEndpointId}", { params: { path: { webhookEndpointId } }, fetch }));
  }

  update(webhookEndpointId: string, body: RequestBody<"updateWebhookEndpoint">, options?: CallOptions): Promise<WebhookEndpoint> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.PATCH("/api/v1/webhook-endpoints/{webhookEndpointId}", { body, params: { path: { webhookEndpointId }, header }, fetch }));
  }

  delete(webhookEndpointId: string, options?: CallOptions): Promise<Schema<"DeletedWebhookEndpoint">> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.DELETE("/api/v1/webhook-endpoints/{webhookEndpointId}", { params: { path: { webhookEndpointId }, header }, fetch }));
  }

  /** A new signing secret, answered this once; the old one keeps signing for 24 hours. */
  rotateSecret(webhookEndpointId: string, options?: CallOptions): Promise<Schema<"RotatedWebhookEndpoint">> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(
      this.#t.api.POST("/api/v1/webhook-endpoints/{webhookEndpointId}/rotate-secret", { params: { path: { webhookEndpointId }, header }, fetch }),
    );
  }

  /** Sends a `webhook.test` event to this endpoint alone; answers the event and its pending attempt. */
  sendTest(webhookEndpointId: string, options?: CallOptions): Promise<Schema<"WebhookTest">> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(this.#t.api.POST("/api/v1/webhook-endpoints/{webhookEndpointId}/test", { params: { path: { webhookEndpointId }, header }, fetch }));
  }

  /** Every delivery attempt to the endpoint, newest first, page after page (`eventId` keeps one event's). */
  listDeliveries(
    webhookEndpointId: string,
    query: ListQuery<"listWebhookDeliveries"> = {},
    options?: CallOptions,
  ): PageIterator<WebhookDelivery> {
    return new PageIterator(async (cursor) => {
      const { fetch } = this.#t.read(options);
      const page = await unwrap(
        this.#t.api.GET("/api/v1/webhook-endpoints/{webhookEndpointId}/deliveries", {
          params: { path: { webhookEndpointId }, query: { ...query, cursor } },
          fetch,
        }),
      );
      return { items: page.deliveries, nextCursor: page.nextCursor };
    });
  }

  /** One more attempt of the event to the endpoint, now, with the same `webhook-id`. */
  redeliver(webhookEndpointId: string, eventId: string, options?: CallOptions): Promise<WebhookDelivery> {
    const { fetch, header } = this.#t.write(options);
    return unwrap(
      this.#t.api.POST("/api/v1/webhook-endpoints/{webhookEndpointId}/deliveries/{eventId}/redeliver", {
        params: { path: { webhookEndpointId, eventId }, header },
        fetch,
      }),
    );
  }
}
