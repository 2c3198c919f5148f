export { startBillingServer, type BillingServerOptions } from "./server.js";
export { readBillingConfig, type BillingConfig } from "./config.js";
export { createBillingService } from "./billing-service.js";
export { createBillingDeps, type BillingDeps, type BillingDepsOptions } from "./billing-deps.js";
export { startBillingClock, type BillingClock, type BillingClockOptions } from "./clock/billing-clock.js";
