export { startBillingServer } from "./server.js";
export { readBillingConfig, type BillingConfig } from "./config.js";
