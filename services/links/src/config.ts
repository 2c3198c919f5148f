import { envUrl, type Env } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import { readProviderAccountsConfig, readSandboxOptions, type ProviderAccountsConfig, type SandboxProviderOptions } from "@bayad/provider";

export interface LinksConfig {
  /** The test-mode provider, which hosts the links' payment pages. */
  sandbox: SandboxProviderOptions;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (86400, the gateway's): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
  /**
   * The projects' own provider accounts (PayMongo, Xendit): SECRETS_KEY (the payments service's,
   * which opens their sealed keys), PAYMONGO_API_BASE, XENDIT_API_BASE, PROVIDER_RECONCILE_AFTER
   * and _INTERVAL (how links paid at the provider are found paid).
   */
  providerAccounts: ProviderAccountsConfig;
  /**
   * PAYMENTS_URL (e.g. http://payments:50051): the payments service, which resolves a project's
   * provider account. Unset (and no in-process transport given), links use the sandbox only and
   * live mode answers PROVIDER_NOT_CONFIGURED.
   */
  paymentsUrl?: string;
}

/** The links service's environment; a bad value throws a one-line ConfigError. */
export function readLinksConfig(env: Env): LinksConfig {
  const paymentsUrl = envUrl(env, "PAYMENTS_URL");
  return {
    sandbox: readSandboxOptions(env),
    idempotencyWindowMs: readIdempotencyWindowMs(env, "payment"),
    providerAccounts: readProviderAccountsConfig(env),
    ...(paymentsUrl !== undefined ? { paymentsUrl } : {}),
  };
}
