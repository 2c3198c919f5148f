export { errorCatalogue, errorOutcome, isErrorCode, type ErrorCode, type ErrorOutcome } from "./errors/catalogue.js";
export { AppError, notFound, invalidTransition, type AppErrorOptions } from "./errors/app-error.js";
export { toConnectError, fromConnectError } from "./errors/connect-errors.js";
export { appErrorOfStoreFault } from "./errors/store-faults.js";
export { newId, randomBase62, type IdPrefix } from "./ids.js";
export { CURRENCY, isValidAmountMinor, amountToDecimalText, type Money } from "./money.js";
export {
  ConfigError,
  envString,
  envOptional,
  envInt,
  envBool,
  envEnum,
  envUrl,
  envSecret,
  envDuration,
  envKeyRing,
  readSecretsKeys,
  parseDuration,
  type Env,
} from "./config.js";
export { createLogger, type Logger } from "./logger.js";
export {
  callerCallOptions,
  callerHeaders,
  callerFromHeaders,
  callerOf,
  correlationIdOf,
  mutatingCallerOf,
  type CallerContext,
  isEnvironment,
  type Environment,
} from "./caller-context.js";
export { enumToText, enumToTextOrNull, textToEnum } from "./enum-names.js";
export { startServiceServer, type ServiceServerOptions, type RunningServer } from "./service-server.js";
export { defineStateMachine, type StateMachine, type TransitionTable } from "./state-machine.js";
export { toStoredMetadata, fromStoredMetadata, type StoredMetadata } from "./metadata.js";
export { publicPaymentIntentStatus } from "./public-status.js";
export {
  createMetricsRegistry,
  metricOnce,
  latencyBuckets,
  rpcMetricsInterceptor,
  serveMetrics,
  Registry,
  Gauge,
  Counter,
  Histogram,
  type MetricsServer,
  type MetricsSource,
} from "./metrics.js";
export { pause } from "./pause.js";
export { backoffDelay, doublingDelay, jitteredBackoff, lostRaceBackoff, pauseAfterLostRace, type BackoffSettings } from "./backoff.js";
export { constantTimeEquals } from "./constant-time.js";
export { keyedDigest, sealText, openSealed, resealText, sealedKeyId, type SealingKeys } from "./secrets.js";
export { LEGACY_KEY_ID, digestKeyOf, parseKeyRing, sealingKeyOf, singleKeyRing, type KeyRing, type RingKey } from "./key-ring.js";
export { addResealCounts, noResealCounts, resealCollection, type ResealCounts, type SealedValue } from "./reseal.js";
export { isoTime } from "./iso-time.js";
export { createCursorCodec, type CursorCodec, type CursorScope, type PagePosition } from "./listing-cursor.js";
export { createPortTransport, servePortCalls, type ServePortCallsOptions } from "./port-transport.js";
export {
  setupTracing,
  traceToExporter,
  tracingEnabled,
  tracerOf,
  currentTracer,
  activeSpan,
  asComponentWork,
  extractTraceContext,
  traceHeaders,
  inSpan,
  SpanKind,
  SpanStatusCode,
  type Span,
  type TraceContext,
  type Tracing,
} from "./tracing.js";
export { traceContextInterceptor, clientTracingInterceptors, rpcTracingInterceptor, withClientInterceptors } from "./rpc-tracing.js";
export { traceStore } from "./traced-store.js";
export {
  createRateLimiter,
  rateLimitedError,
  type RateLimiter,
  type RateLimitCharge,
  type RateLimitOutcome,
  type RateLimitState,
} from "./rate-limits/rate-limiter.js";
export { createRateLimitLeases, type RateLimitLeases } from "./rate-limits/rate-limit-leases.js";
export { type RateLimitSetting } from "./rate-limits/sliding-window.js";
