export { startRecordsServer, type RecordsServerOptions } from "./server.js";
export { readRecordsConfig, type RecordsConfig } from "./config.js";
export { createRecordsService, type RecordsServiceDeps } from "./records-service.js";
export { startRecordsConsumer, type RecordsConsumerOptions } from "./consumer.js";
