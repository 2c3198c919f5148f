export { createPaymentsService, type PaymentsServiceDeps } from "./payments-service.js";
export { startPaymentsServer, type PaymentsServerOptions } from "./server.js";
export { readPaymentsConfig, type PaymentsConfig } from "./config.js";
