import { AppError, fromConnectError, isEnvironment, type Environment, type SealingKeys } from "@bayad/kit";
import type { ResolveProviderAccountResponse } from "@bayad/proto";
import { createPaymongoClient, type PaymongoClient } from "./paymongo/paymongo-client.js";
import { pathOf, PAYMONGO_PATHS } from "./paymongo/paymongo-endpoints.js";
import { createPaymongoProvider, type PaymongoProvider } from "./paymongo/paymongo-provider.js";
import { linkStateOf, resourceOf, type PaymongoLinkState } from "./paymongo/paymongo-resources.js";
import { openProviderSecretKey } from "./provider-secrets.js";
import type { ProviderAccounts } from "./providers.js";

/** What is asked of the payments service (a ResolveProviderAccountRequest): an account by project and environment, or by id. */
export interface ResolveRequest {
  by: { case: "project"; value: { projectId: string; environment: string; provider: string } } | { case: "providerAccountId"; value: string };
}

export interface ResolvedProviderAccountsOptions {
  /**
   * The payments service's ProviderAccountsService.ResolveProviderAccount (a Connect client's
   * method, bound): the account with its secrets sealed. Its RESOURCE_NOT_FOUND means no account.
   */
  resolve(request: ResolveRequest): Promise<ResolveProviderAccountResponse>;
  /** The SECRETS_KEYS ring, the payments service's: opens the sealed key. Without it no account can be used (503). */
  secretsKey: SealingKeys | undefined;
  /** PAYMONGO_API_BASE. */
  paymongoApiBase: string;
}

/** A project's provider account as another service uses it: the account's id and its PayMongo adapter. */
export interface ResolvedProviderAccounts extends ProviderAccounts {
  /** The adapter of an account by id, with PayMongo's look-ups (the reconcilers start from the resource's account). */
  paymongoOf(providerAccountId: string): Promise<PaymongoProvider | undefined>;
  /**
   * Archives (or unarchives) a link at the account's PayMongo (`/v1/links/{id}/archive`), so that
   * a link Bayad shows archived cannot be paid there either; undefined once the account is removed.
   * PayMongo's archive is idempotent, so asking again after a lost answer is safe.
   */
  setLinkArchived(providerAccountId: string, linkId: string, archived: boolean): Promise<PaymongoLinkState | undefined>;
  /** Closes the adapters' connection pools. */
  close(): Promise<void>;
}

/**
 * The projects' provider accounts for services other than payments (links, billing), which own
 * no `provider_accounts`: every call asks the payments service (so a put or a delete takes effect
 * at once, on every replica) and opens the sealed key with SECRETS_KEY here, so the clear key
 * never crosses the wire.
 *
 * Hosted payments (payment links, invoices) stay on PayMongo (or the sandbox): `forProject`
 * answers the project's PayMongo account only, whatever Xendit account the project also holds,
 * and an account found by id that is not PayMongo's is answered as none. A Xendit account is
 * never used here: the Xendit adapter serves no hosted links yet (its links are invoices). The adapter, with its connection pool, is made once per account
 * version (its updatedAt and sealed key), so a replaced key gets a fresh one.
 */
export function createResolvedProviderAccounts(options: ResolvedProviderAccountsOptions): ResolvedProviderAccounts {
  const adapters = new Map<string, { version: string; provider: PaymongoProvider; client: PaymongoClient }>();

  async function resolved(request: ResolveRequest): Promise<{ providerAccountId: string; provider: PaymongoProvider } | undefined> {
    const account = await resolvedAccount(request);
    return account && { providerAccountId: account.providerAccountId, provider: account.provider };
  }

  async function resolvedAccount(
    request: ResolveRequest,
  ): Promise<{ providerAccountId: string; provider: PaymongoProvider; client: PaymongoClient } | undefined> {
    let answer: ResolveProviderAccountResponse;
    try {
      answer = await options.resolve(request);
    } catch (thrown) {
      const error = fromConnectError(thrown);
      if (error.code === "RESOURCE_NOT_FOUND") return undefined;
      throw error;
    }
    const account = answer.providerAccount;
    if (!account || !answer.sealed || account.provider !== "paymongo") return undefined;
    const provider = adapterOf(account, answer.sealed.secretKey);
    return { providerAccountId: account.providerAccountId, provider, client: adapters.get(account.providerAccountId)!.client };
  }

  function adapterOf(account: NonNullable<ResolveProviderAccountResponse["providerAccount"]>, sealedKey: string): PaymongoProvider {
    const version = `${account.updatedAt?.seconds ?? 0}.${account.updatedAt?.nanos ?? 0}:${sealedKey}`;
    const cached = adapters.get(account.providerAccountId);
    if (cached?.version === version) return cached.provider;
    if (options.secretsKey === undefined) {
      throw new AppError("SERVICE_UNAVAILABLE", "SECRETS_KEY is not set on this service: the project's provider account cannot be used.");
    }
    if (account.provider !== "paymongo" || !isEnvironment(account.environment)) {
      throw new Error(`provider account ${account.providerAccountId} is of an unknown provider or environment`);
    }
    const environment: Environment = account.environment;
    const client = createPaymongoClient({
      apiBase: options.paymongoApiBase,
      secretKey: openProviderSecretKey(options.secretsKey, account.providerAccountId, sealedKey),
    });
    const provider = createPaymongoProvider({ client, paymentMethodTypes: account.paymentMethodTypes, livemode: environment === "live" });
    adapters.set(account.providerAccountId, { version, provider, client });
    // The replaced key's pool is idle from now on (an in-flight call on it finishes first).
    if (cached) void cached.client.close().catch(() => undefined);
    return provider;
  }

  return {
    forProject: (projectId, environment) => resolved({ by: { case: "project", value: { projectId, environment, provider: "paymongo" } } }),
    async forAccount(providerAccountId) {
      return (await resolved({ by: { case: "providerAccountId", value: providerAccountId } }))?.provider;
    },
    async paymongoOf(providerAccountId) {
      return (await resolved({ by: { case: "providerAccountId", value: providerAccountId } }))?.provider;
    },
    async setLinkArchived(providerAccountId, linkId, archived) {
      const account = await resolvedAccount({ by: { case: "providerAccountId", value: providerAccountId } });
      if (!account) return undefined;
      const operation = archived ? "archiveLink" : "unarchiveLink";
      const document = await account.client.post(pathOf(PAYMONGO_PATHS.links, linkId, archived ? "archive" : "unarchive"), operation);
      return linkStateOf(resourceOf(document, operation));
    },
    async close() {
      const open = [...adapters.values()];
      adapters.clear();
      await Promise.all(open.map((adapter) => adapter.client.close().catch(() => undefined)));
    },
  };
}
