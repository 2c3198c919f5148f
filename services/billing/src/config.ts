import { envInt, type Env } from "@bayad/kit";
import { readSandboxOptions, type SandboxProviderOptions } from "@bayad/provider";

export interface BillingConfig {
  /** How often the billing clock looks for periods that have ended. */
  clockIntervalMs: number;
  /**
   * How long the clock's lease lasts unrenewed: after a holder crashes, another replica's clock
   * takes over within this long. Renewed every tick, so it should exceed clockIntervalMs.
   */
  clockLeaseMs: number;
  sandbox: SandboxProviderOptions;
}

/** The billing service's environment; a bad value throws a one-line ConfigError. */
export function readBillingConfig(env: Env): BillingConfig {
  return {
    clockIntervalMs: envInt(env, "BILLING_CLOCK_INTERVAL_MS", 10_000, { min: 10, max: 3_600_000 }),
    clockLeaseMs: envInt(env, "BILLING_CLOCK_LEASE_MS", 30_000, { min: 10, max: 3_600_000 }),
    sandbox: readSandboxOptions(env),
  };
}
