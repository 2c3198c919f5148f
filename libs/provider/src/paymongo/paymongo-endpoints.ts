/**
 * Every PayMongo path the adapter calls, in one place, because PayMongo is moving some of them:
 * - Checkout sessions: `/v1/checkout_sessions` [O]; newer docs also show `/v2/checkout_sessions`.
 *   v1 is what the SDKs and the simulator speak.
 * - Links: legacy `/v1/links` [O, being deprecated] with JSON:API resources (`checkout_url`,
 *   `reference_number`), or its successor `/v1/payment_links`, flat (`url`, `reference_number`).
 *   The adapter uses `/v1/links`; the link reader (linkStateOf) already reads both shapes, so
 *   moving means changing `links` here and the create's attributes in createHostedPayment.
 */
export const PAYMONGO_PATHS = {
  checkoutSessions: "/v1/checkout_sessions",
  paymentIntents: "/v1/payment_intents",
  paymentMethods: "/v1/payment_methods",
  payments: "/v1/payments",
  refunds: "/v1/refunds",
  links: "/v1/links",
  customers: "/v1/customers",
  webhooks: "/v1/webhooks",
} as const;

/** `{collection}/{id}` with the id escaped, so an id can never reach another path. */
export const pathOf = (collection: string, id: string, action?: string) =>
  `${collection}/${encodeURIComponent(id)}${action ? `/${action}` : ""}`;
