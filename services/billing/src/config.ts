import { envInt, envUrl, type Env } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import { readProviderAccountsConfig, readSandboxOptions, type ProviderAccountsConfig, type SandboxProviderOptions } from "@bayad/provider";

export interface BillingConfig {
  /** How often the billing clock looks for periods that have ended. */
  clockIntervalMs: number;
  /**
   * How long the clock's lease lasts unrenewed: after a holder crashes, another replica's clock
   * takes over within this long. Renewed every tick, so it should exceed clockIntervalMs.
   */
  clockLeaseMs: number;
  sandbox: SandboxProviderOptions;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (86400, the gateway's): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
  /**
   * The projects' own provider accounts (PayMongo, Xendit), for invoices' hosted payments:
   * SECRETS_KEY (the payments service's, which opens their sealed keys), PAYMONGO_API_BASE,
   * XENDIT_API_BASE, PROVIDER_RECONCILE_AFTER and _INTERVAL (how invoices paid at the provider
   * are found paid).
   */
  providerAccounts: ProviderAccountsConfig;
  /**
   * PAYMENTS_URL (e.g. http://payments:50051): the payments service, which resolves a project's
   * provider account. Unset (and no in-process transport given), invoices use the sandbox only
   * and live subscriptions answer PROVIDER_NOT_CONFIGURED.
   */
  paymentsUrl?: string;
}

/** The billing service's environment; a bad value throws a one-line ConfigError. */
export function readBillingConfig(env: Env): BillingConfig {
  const paymentsUrl = envUrl(env, "PAYMENTS_URL");
  return {
    clockIntervalMs: envInt(env, "BILLING_CLOCK_INTERVAL_MS", 10_000, { min: 10, max: 3_600_000 }),
    clockLeaseMs: envInt(env, "BILLING_CLOCK_LEASE_MS", 30_000, { min: 10, max: 3_600_000 }),
    sandbox: readSandboxOptions(env),
    idempotencyWindowMs: readIdempotencyWindowMs(env, "payment"),
    providerAccounts: readProviderAccountsConfig(env),
    ...(paymentsUrl !== undefined ? { paymentsUrl } : {}),
  };
}
