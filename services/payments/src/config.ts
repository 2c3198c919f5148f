import { envInt, type Env } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/events";
import { readSandboxOptions, type SandboxProviderOptions } from "@bayad/provider";

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
}

/** The payments service's environment; a bad value throws a one-line ConfigError. */
export function readPaymentsConfig(env: Env): PaymentsConfig {
  return {
    providerTimeoutMs: envInt(env, "PROVIDER_TIMEOUT_MS", 5_000, { min: 10, max: 120_000 }),
    reconcileIntervalMs: envInt(env, "PAYMENTS_RECONCILE_INTERVAL_MS", 5_000, { min: 10, max: 600_000 }),
    sandbox: readSandboxOptions(env),
    providerLeaseMs: envInt(env, "PAYMENTS_PROVIDER_LEASE_MS", 30_000, { min: 1_000, max: 3_600_000 }),
    idempotencyWindowMs: readIdempotencyWindowMs(env, "payment"),
  };
}
