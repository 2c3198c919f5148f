import { envDuration, envInt, envUrl, readSecretsKeys, type Env, type KeyRing } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import { readSandboxOptions, XENDIT_API_BASE_DEFAULT, type SandboxProviderOptions } from "@bayad/provider";

export interface PaymentsConfig {
  /** How long createCheckout waits for the provider before answering 202. */
  providerTimeoutMs: number;
  /** How often checkouts the provider left unanswered are reconciled and due QR Ph codes expired. */
  reconcileIntervalMs: number;
  sandbox: SandboxProviderOptions;
  /**
   * PAYMENTS_PROVIDER_LEASE_MS (30000): how long a refund or a confirmation may wait for the
   * provider before it is presumed lost (its process died) and re-driven or taken over.
   */
  providerLeaseMs: number;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (86400, the gateway's): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
  /**
   * SECRETS_KEYS, or SECRETS_KEY (every key at least 32 characters; payments, links and billing
   * share them): the ring that seals provider accounts' secret keys and webhook secrets
   * (AES-256-GCM) with its newest key and opens them with any. `npm start` generates and keeps
   * one key; services mode on MongoDB requires it (a key drawn per run would lose every sealed
   * secret). Unset: provider accounts cannot be put (503).
   */
  secretsKey?: KeyRing;
  /** PAYMONGO_API_BASE (https://api.paymongo.com): where the PayMongo adapter calls (the simulator in tests). */
  paymongoApiBase: string;
  /** XENDIT_API_BASE (https://api.xendit.co): where the Xendit adapter calls (the Xendit simulator in tests). */
  xenditApiBase: string;
  /**
   * PUBLIC_URL: the gateway's public base URL, where PayMongo delivers a provider account's
   * webhooks (`{PUBLIC_URL}/provider-webhooks/paymongo/{providerAccountId}`) and Xendit its
   * callbacks (`…/provider-webhooks/xendit/{providerAccountId}`, set in Xendit's dashboard). `npm start` defaults
   * it to the gateway's own URL; unset elsewhere, provider accounts cannot be put (503).
   */
  publicUrl?: string;
  /** PROVIDER_RECONCILE_AFTER (5m): how old a non-final resource of a provider account is before PayMongo is asked about it. */
  providerReconcileAfterMs: number;
  /** PROVIDER_RECONCILE_INTERVAL (1m): how often the provider reconciler runs (webhooks re-enabled too). */
  providerReconcileIntervalMs: number;
  /** PROVIDER_BREAKER_THRESHOLD (5): creates in a row a provider account made nothing of (or left unanswered) before its circuit opens. */
  providerBreakerThreshold: number;
  /** PROVIDER_BREAKER_HALF_OPEN_AFTER (30s): how long an open circuit skips its account before one create probes it. */
  providerBreakerHalfOpenAfterMs: number;
}

/** The payments service's environment; a bad value throws a one-line ConfigError. */
export function readPaymentsConfig(env: Env): PaymentsConfig {
  return {
    providerTimeoutMs: envInt(env, "PROVIDER_TIMEOUT_MS", 5_000, { min: 10, max: 120_000 }),
    reconcileIntervalMs: envInt(env, "PAYMENTS_RECONCILE_INTERVAL_MS", 5_000, { min: 10, max: 600_000 }),
    sandbox: readSandboxOptions(env),
    providerLeaseMs: envInt(env, "PAYMENTS_PROVIDER_LEASE_MS", 30_000, { min: 1_000, max: 3_600_000 }),
    idempotencyWindowMs: readIdempotencyWindowMs(env, "payment"),
    secretsKey: readSecretsKeys(env),
    paymongoApiBase: envUrl(env, "PAYMONGO_API_BASE", "https://api.paymongo.com")!,
    xenditApiBase: envUrl(env, "XENDIT_API_BASE", XENDIT_API_BASE_DEFAULT)!,
    publicUrl: envUrl(env, "PUBLIC_URL"),
    providerReconcileAfterMs: envDuration(env, "PROVIDER_RECONCILE_AFTER", 300_000, { minMs: 1_000, maxMs: 86_400_000 }),
    providerReconcileIntervalMs: envDuration(env, "PROVIDER_RECONCILE_INTERVAL", 60_000, { minMs: 1_000, maxMs: 3_600_000 }),
    providerBreakerThreshold: envInt(env, "PROVIDER_BREAKER_THRESHOLD", 5, { min: 1, max: 1_000 }),
    providerBreakerHalfOpenAfterMs: envDuration(env, "PROVIDER_BREAKER_HALF_OPEN_AFTER", 30_000, { minMs: 100, maxMs: 3_600_000 }),
  };
}
