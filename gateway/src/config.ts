import {
  ConfigError,
  digestKeyOf,
  envBool,
  envInt,
  envKeyRing,
  envOptional,
  envSecret,
  envString,
  envUrl,
  randomBase62,
  singleKeyRing,
  type Env,
  type KeyRing,
  type RateLimitSetting,
} from "@bayad/kit";
import { readIdempotencyWindowMs, type IdempotencyKind } from "@bayad/idempotency";
import type { RateLimitSettings } from "./middleware/rate-limit.js";
import { readHttpServerSettings, type HttpServerSettings } from "./http-server.js";
import { readTrustProxy, type TrustProxy } from "./http/client-address.js";

export interface GatewayConfig {
  host: string;
  port: number;
  /**
   * PUBLIC_URL: where payers' browsers (hosted pages, QR images) and PayMongo's webhooks reach
   * the gateway; defaults to its own URL.
   */
  publicUrl?: string;
  adminApiKey: string;
  /** True when ADMIN_API_KEY was unset and a key was generated for this run. */
  adminApiKeyGenerated: boolean;
  /**
   * GATEWAY_SECRETS, or GATEWAY_SECRET (every key at least 32 characters, shared by replicas):
   * the ring whose newest key seals what the gateway keeps of requests and its token-signing keys
   * (AES-256-GCM; any key of the ring opens them). Generated per run when unset.
   */
  secrets: KeyRing;
  /**
   * The ring's first key: keys the idempotency record ids and fingerprints, dashboard sessions,
   * listing cursors and rate-limit keys (HMAC), which must stay the same across a rotation.
   */
  secret: string;
  bodyLimitBytes: number;
  rpcTimeoutMs: number;
  /**
   * RECORDS_EXPORT_TIMEOUT_MS (default 600000, 10 minutes): the deadline of a records export's
   * stream as a whole, which may run far longer than a unary call (RPC_TIMEOUT_MS).
   */
  recordsExportTimeoutMs: number;
  /** HTTP_*: the HTTP server's timeouts and head size (http-server.ts). */
  http: HttpServerSettings;
  /**
   * Where the gateway serves /metrics (METRICS_HOST, default HOST; METRICS_PORT, default 9464):
   * an internal listener of its own, never the public port.
   */
  metrics: { host: string; port: number };
  /** How long a dashboard sign-in lasts (DASHBOARD_SESSION_HOURS, default 8): then the operator signs in again. */
  dashboardSessionTtlMs: number;
  /** How long a dashboard session lasts unused (DASHBOARD_SESSION_IDLE_MINUTES, default 30). */
  dashboardSessionIdleMs: number;
  /** Wrong admin keys a minute at sign-in, from all addresses together (DASHBOARD_SIGN_IN_GLOBAL_FAILURES, default 200). */
  dashboardSignInGlobalFailures: RateLimitSetting;
  /** TRUST_PROXY: when X-Forwarded-For names the client (http/client-address.ts); off by default. */
  trustProxy: TrustProxy;
  /** RATE_LIMIT_{CREDENTIAL,PROJECT}_{READS,WRITES} and their _WINDOW_SECONDS (docs/api/rate-limits.md). */
  rateLimits: RateLimitSettings;
  idempotency: {
    leaseMs: number;
    reconcileIntervalMs: number;
    retryBaseMs: number;
    /** How long a response is replayed: payment operations, and OTP generate/verify. */
    windowMs: Record<IdempotencyKind, number>;
  };
  tokens: {
    /**
     * The platform's own development issuer (admin-issued service tokens). Off unless
     * DEV_TOKEN_ISSUER switches it on; the one-process launcher (`npm start`) does.
     */
    devIssuer: boolean;
    /** How long a development signing key signs before it is replaced (DEV_TOKEN_KEY_ROTATION_HOURS). */
    devKeyRotationMs: number;
    issuer: string;
    audience: string;
    /** A production issuer whose JWKS the gateway trusts. */
    external?: { jwksUrl: string; issuer: string; audience: string };
  };
}

const hour = 3_600_000;

/** `<name>` calls per `<name>_WINDOW_SECONDS` (1 second unless set). */
function readLimit(env: Env, name: string, limit: number): RateLimitSetting {
  return {
    limit: envInt(env, name, limit, { min: 1, max: 1_000_000 }),
    windowSeconds: envInt(env, `${name}_WINDOW_SECONDS`, 1, { min: 1, max: 3_600 }),
  };
}

/** Reads and checks the gateway's environment; a bad value throws a one-line ConfigError. */
export function readGatewayConfig(env: Env): GatewayConfig {
  const givenAdminKey = envOptional(env, "ADMIN_API_KEY");
  if (givenAdminKey !== undefined && givenAdminKey.length < 16) {
    throw new ConfigError("ADMIN_API_KEY", "must be at least 16 characters");
  }
  const jwksUrl = envUrl(env, "JWKS_URL");
  const rpcTimeoutMs = envInt(env, "RPC_TIMEOUT_MS", 10_000, { min: 100, max: 120_000 });
  const secretNames = { single: "GATEWAY_SECRET", ring: "GATEWAY_SECRETS" };
  const secrets = envKeyRing(env, secretNames, 32) ?? singleKeyRing(envSecret(env, secretNames.single, 32).value);
  return {
    host: envString(env, "HOST", "127.0.0.1"),
    port: envInt(env, "PORT", 8080, { min: 0, max: 65535 }),
    publicUrl: envUrl(env, "PUBLIC_URL"),
    adminApiKey: givenAdminKey ?? `adm_${randomBase62(32)}`,
    adminApiKeyGenerated: givenAdminKey === undefined,
    secrets,
    secret: digestKeyOf(secrets),
    bodyLimitBytes: envInt(env, "BODY_LIMIT_BYTES", 65_536, { min: 1_024, max: 10_485_760 }),
    rpcTimeoutMs,
    recordsExportTimeoutMs: envInt(env, "RECORDS_EXPORT_TIMEOUT_MS", 600_000, { min: 1_000, max: 3_600_000 }),
    http: readHttpServerSettings(env, rpcTimeoutMs),
    metrics: {
      host: envString(env, "METRICS_HOST", envString(env, "HOST", "127.0.0.1")),
      port: envInt(env, "METRICS_PORT", 9464, { min: 0, max: 65535 }),
    },
    dashboardSessionTtlMs: envInt(env, "DASHBOARD_SESSION_HOURS", 8, { min: 1, max: 720 }) * hour,
    dashboardSessionIdleMs: envInt(env, "DASHBOARD_SESSION_IDLE_MINUTES", 30, { min: 2, max: 43_200 }) * 60_000,
    dashboardSignInGlobalFailures: {
      limit: envInt(env, "DASHBOARD_SIGN_IN_GLOBAL_FAILURES", 200, { min: 1, max: 1_000_000 }),
      windowSeconds: 60,
    },
    trustProxy: readTrustProxy(env),
    rateLimits: {
      credential: { reads: readLimit(env, "RATE_LIMIT_CREDENTIAL_READS", 100), writes: readLimit(env, "RATE_LIMIT_CREDENTIAL_WRITES", 50) },
      project: { reads: readLimit(env, "RATE_LIMIT_PROJECT_READS", 200), writes: readLimit(env, "RATE_LIMIT_PROJECT_WRITES", 100) },
    },
    idempotency: {
      leaseMs: envInt(env, "IDEMPOTENCY_LEASE_MS", 30_000, { min: 100, max: 600_000 }),
      reconcileIntervalMs: envInt(env, "IDEMPOTENCY_RECONCILE_INTERVAL_MS", 5_000, { min: 50, max: 600_000 }),
      retryBaseMs: envInt(env, "IDEMPOTENCY_RETRY_BASE_MS", 1_000, { min: 10, max: 600_000 }),
      windowMs: { payment: readIdempotencyWindowMs(env, "payment"), otp: readIdempotencyWindowMs(env, "otp") },
    },
    tokens: {
      devIssuer: envBool(env, "DEV_TOKEN_ISSUER", false),
      devKeyRotationMs: envInt(env, "DEV_TOKEN_KEY_ROTATION_HOURS", 24, { min: 1, max: 8_760 }) * hour,
      issuer: envString(env, "DEV_TOKEN_ISSUER_NAME", "bayad-dev-issuer"),
      audience: envString(env, "TOKEN_AUDIENCE", "bayad-api"),
      external: jwksUrl
        ? {
            jwksUrl,
            issuer: envString(env, "JWT_ISSUER"),
            audience: envString(env, "JWT_AUDIENCE", envString(env, "TOKEN_AUDIENCE", "bayad-api")),
          }
        : undefined,
    },
  };
}
