import { envInt, envOptional, randomBase62 } from "@bayad/kit";

export interface PaymentsConfig {
  /** How long createCheckout waits for the provider before answering 202. */
  providerTimeoutMs: number;
  /** How often checkouts the provider left unanswered are reconciled and due QR Ph codes expired. */
  reconcileIntervalMs: number;
  sandbox: { secret: string; delayMs: number; silenceMs: number };
}

type Env = Record<string, string | undefined>;

/** The payments service's environment; a bad value throws a one-line ConfigError. */
export function readPaymentsConfig(env: Env): PaymentsConfig {
  return {
    providerTimeoutMs: envInt(env, "PROVIDER_TIMEOUT_MS", 5_000, { min: 10, max: 120_000 }),
    reconcileIntervalMs: envInt(env, "PAYMENTS_RECONCILE_INTERVAL_MS", 5_000, { min: 10, max: 600_000 }),
    sandbox: {
      // Replicas must share it (their hosted-page links must agree); one process may draw its own.
      secret: envOptional(env, "SANDBOX_SECRET") ?? randomBase62(32),
      delayMs: envInt(env, "SANDBOX_DELAY_MS", 8_000, { min: 0, max: 600_000 }),
      silenceMs: envInt(env, "SANDBOX_SILENCE_MS", 5_000, { min: 0, max: 600_000 }),
    },
  };
}
