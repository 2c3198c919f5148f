export { startWebhooksServer, type WebhooksServerOptions } from "./server.js";
export { readWebhooksConfig, type WebhooksConfig } from "./config.js";
export { WEBHOOKS_DURABLE_NAME } from "./consumer.js";
export { webhookEndpointsCollection } from "./endpoints/webhook-endpoints-repository.js";
export { webhookEventsCollection } from "./events/webhook-events-repository.js";
export { webhookDeliveriesCollection } from "./deliveries/webhook-deliveries-repository.js";
