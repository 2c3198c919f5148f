export type { WebhookDelivery, WebhookEndpoint } from "../../api/schemas";
/** The webhook resources as the gateway answers them (gateway/openapi/openapi.yaml, Webhooks). */

export const endpointsPath = "/api/v1/webhook-endpoints";
