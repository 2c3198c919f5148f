/**
 * Generated protobuf code for Bayad's internal contracts. Everything under ./gen is produced by
 * `buf generate` from /proto and never edited by hand.
 */
export * from "./gen/bayad/common/v1/common_pb.js";
export * from "./gen/bayad/payments/v1/resources_pb.js";
export * from "./gen/bayad/payments/v1/payments_pb.js";
export * from "./gen/bayad/payments/v1/provider_accounts_pb.js";
export * from "./gen/bayad/billing/v1/billing_pb.js";
export * from "./gen/bayad/links/v1/links_pb.js";
export * from "./gen/bayad/records/v1/records_pb.js";
export * from "./gen/bayad/otp/v1/otp_pb.js";
export * from "./gen/bayad/events/v1/events_pb.js";
export * from "./gen/grpc/health/v1/health_pb.js";
export * from "./gen/bayad/webhooks/v1/webhooks_pb.js";
