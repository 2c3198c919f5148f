import { envInt, type Env } from "@bayad/kit";
import { readSandboxOptions, type SandboxProviderOptions } from "@bayad/provider";

export interface PaymentsConfig {
  /** How long createCheckout waits for the provider before answering 202. */
  providerTimeoutMs: number;
  /** How often checkouts the provider left unanswered are reconciled and due QR Ph codes expired. */
  reconcileIntervalMs: number;
  sandbox: SandboxProviderOptions;
}

/** The payments service's environment; a bad value throws a one-line ConfigError. */
export function readPaymentsConfig(env: Env): PaymentsConfig {
  return {
    providerTimeoutMs: envInt(env, "PROVIDER_TIMEOUT_MS", 5_000, { min: 10, max: 120_000 }),
    reconcileIntervalMs: envInt(env, "PAYMENTS_RECONCILE_INTERVAL_MS", 5_000, { min: 10, max: 600_000 }),
    sandbox: readSandboxOptions(env),
  };
}
