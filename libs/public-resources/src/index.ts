/**
 * Each resource in its public form: what the REST API answers and what consumer events carry as
 * their `data`, from the services' protobuf messages. One rendering, so an event's `data` is
 * exactly what a GET of the resource would have answered at that version.
 */
export { dateField, moneyToJson, optionalField, required, type PublicUrl } from "./json.js";
export { publicUrlResolver } from "./public-url.js";
export { checkoutToJson, customerToJson, paymentIntentToJson, qrPhPaymentIntentToJson, refundToJson } from "./payments.js";
export { invoiceLineToJson, invoiceToJson, planChangePreviewToJson, planToJson, subscriptionToJson } from "./billing.js";
export { paymentLinkToJson } from "./links.js";
export { providerAccountToJson } from "./provider-accounts.js";
export { providerRouteFromJson, providerRoutingToJson, type ProviderRouteJson } from "./provider-routing.js";
export {
  isWebhookEventType,
  publicEventOf,
  testEventType,
  webhookEventTypes,
  type PublicEvent,
  type WebhookEventType,
} from "./event-types.js";
