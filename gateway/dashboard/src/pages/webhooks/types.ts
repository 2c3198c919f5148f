/** The webhook resources as the gateway answers them (gateway/openapi/openapi.yaml, Webhooks). */

export interface WebhookEndpoint {
  webhookEndpointId: string;
  url: string;
  enabledEvents: string[];
  description?: string;
  metadata: Record<string, string>;
  status: "enabled" | "disabled";
  /** Why Bayad disabled it: `gone` (answered 410) or `failing`. */
  disabledReason?: "gone" | "failing";
  createdAt: string;
  updatedAt: string;
}

/** One attempt to deliver one event to one endpoint. */
export interface WebhookDelivery {
  deliveryId: string;
  webhookEndpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: "pending" | "succeeded" | "failed";
  redelivery: boolean;
  createdAt: string;
  attemptedAt?: string;
  durationMs?: number;
  responseStatusCode?: number;
  error?: string;
  nextAttemptAt?: string;
}

export const endpointsPath = "/api/v1/webhook-endpoints";
