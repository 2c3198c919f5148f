/**
 * Test tools for code that delivers webhooks (`@bayad/webhooks-service/testing`), shared by this
 * service's tests and the platform's end-to-end tests. Not used by any service at run time.
 */
export { startWebhookReceiver, type WebhookReceiver, type ReceivedDelivery } from "./webhook-receiver.js";
