export { startRecordsServer, type RecordsServerOptions } from "./server.js";
export { readRecordsConfig, type RecordsConfig } from "./config.js";
export { createRecordsService, type RecordsServiceDeps } from "./records-service.js";
export { RECORDS_DURABLE_NAME, startRecordsConsumer, type RecordsConsumerOptions } from "./consumer.js";
export { paymentRecordsCollection } from "./records/payment-records-repository.js";
export { paymentTotalsCollection, type PaymentTotalsDoc } from "./totals/totals-collection.js";
