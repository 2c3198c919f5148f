import { envDuration, envUrl, readSecretsKeys, type Env, type KeyRing } from "@bayad/kit";
import { PAYMONGO_API_BASE_DEFAULT } from "./paymongo/paymongo-http.js";
import { XENDIT_API_BASE_DEFAULT } from "./xendit/xendit-http.js";

/** What a service that uses projects' provider accounts (links, billing) reads from its environment. */
export interface ProviderAccountsConfig {
  /** SECRETS_KEYS or SECRETS_KEY, the payments service's: opens the accounts' sealed keys. Unset: accounts cannot be used (503). */
  secretsKey?: KeyRing;
  /** PAYMONGO_API_BASE (https://api.paymongo.com). */
  paymongoApiBase: string;
  /** XENDIT_API_BASE (https://api.xendit.co): where the links and invoices of projects' Xendit accounts are made. */
  xenditApiBase: string;
  /** PROVIDER_RECONCILE_AFTER (5m): how old an unpaid resource of a provider account is before its provider is asked about it. */
  reconcileAfterMs: number;
  /** PROVIDER_RECONCILE_INTERVAL (1m): how often the reconciler runs. */
  reconcileIntervalMs: number;
}

/** The provider-account settings; a bad value throws a one-line ConfigError naming the variable. */
export function readProviderAccountsConfig(env: Env): ProviderAccountsConfig {
  const secretsKey = readSecretsKeys(env);
  return {
    ...(secretsKey !== undefined ? { secretsKey } : {}),
    paymongoApiBase: envUrl(env, "PAYMONGO_API_BASE", PAYMONGO_API_BASE_DEFAULT)!,
    xenditApiBase: envUrl(env, "XENDIT_API_BASE", XENDIT_API_BASE_DEFAULT)!,
    reconcileAfterMs: envDuration(env, "PROVIDER_RECONCILE_AFTER", 300_000, { minMs: 1_000, maxMs: 86_400_000 }),
    reconcileIntervalMs: envDuration(env, "PROVIDER_RECONCILE_INTERVAL", 60_000, { minMs: 1_000, maxMs: 3_600_000 }),
  };
}
