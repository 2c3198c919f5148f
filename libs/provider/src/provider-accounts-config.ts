import { ConfigError, envDuration, envOptional, envUrl, type Env } from "@bayad/kit";
import { PAYMONGO_API_BASE_DEFAULT } from "./paymongo/paymongo-http.js";

/** What a service that uses projects' provider accounts (links, billing) reads from its environment. */
export interface ProviderAccountsConfig {
  /** SECRETS_KEY (≥ 32 characters), the payments service's: opens the accounts' sealed keys. Unset: accounts cannot be used (503). */
  secretsKey?: string;
  /** PAYMONGO_API_BASE (https://api.paymongo.com). */
  paymongoApiBase: string;
  /** PROVIDER_RECONCILE_AFTER (5m): how old an unpaid resource of a provider account is before PayMongo is asked about it. */
  reconcileAfterMs: number;
  /** PROVIDER_RECONCILE_INTERVAL (1m): how often the reconciler runs. */
  reconcileIntervalMs: number;
}

/** The provider-account settings; a bad value throws a one-line ConfigError naming the variable. */
export function readProviderAccountsConfig(env: Env): ProviderAccountsConfig {
  const secretsKey = envOptional(env, "SECRETS_KEY");
  if (secretsKey !== undefined && secretsKey.length < 32) throw new ConfigError("SECRETS_KEY", "must be at least 32 characters");
  return {
    ...(secretsKey !== undefined ? { secretsKey } : {}),
    paymongoApiBase: envUrl(env, "PAYMONGO_API_BASE", PAYMONGO_API_BASE_DEFAULT)!,
    reconcileAfterMs: envDuration(env, "PROVIDER_RECONCILE_AFTER", 300_000, { minMs: 1_000, maxMs: 86_400_000 }),
    reconcileIntervalMs: envDuration(env, "PROVIDER_RECONCILE_INTERVAL", 60_000, { minMs: 1_000, maxMs: 3_600_000 }),
  };
}
