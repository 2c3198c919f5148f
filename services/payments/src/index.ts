export { createPaymentsService, type PaymentsServiceDeps } from "./payments-service.js";
export { startPaymentsServer, type PaymentsServerOptions } from "./server.js";
export { readPaymentsConfig, type PaymentsConfig } from "./config.js";
export {
  createProviderAccountsRepository,
  providerWebhookUrl,
  type ProviderAccountsRepository,
  type ProviderAccountRecord,
  type ProviderAccountSetup,
} from "./provider-accounts/index.js";
export { HOSTED_PAYMENTS_DURABLE_NAME } from "./hosted-payments/hosted-payments-consumer.js";
