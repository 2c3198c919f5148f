import { AppError, fromConnectError, isEnvironment, type SealingKeys } from "@bayad/kit";
import type { ResolveProviderAccountResponse } from "@bayad/proto";
import { createPaymongoClient } from "./paymongo/paymongo-client.js";
import { createPaymongoProvider } from "./paymongo/paymongo-provider.js";
import type { PaymentProvider } from "./port.js";
import { openProviderSecretKey } from "./provider-secrets.js";
import type { ProviderAccounts } from "./providers.js";
import { xenditAccountChannels } from "./xendit/xendit-channels.js";
import { createXenditProvider } from "./xendit/xendit-provider.js";

/**
 * What is asked of the payments service (a ResolveProviderAccountRequest): the account a
 * project's hosted payments go to in an environment, or an account by id.
 */
export interface ResolveRequest {
  by:
    | { case: "project"; value: { projectId: string; environment: string; provider: string; hostedPayments: boolean } }
    | { case: "providerAccountId"; value: string };
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
  /** XENDIT_API_BASE. */
  xenditApiBase: string;
}

/** A project's provider accounts as another service uses them (their adapters), and closing the adapters' pools. */
export interface ResolvedProviderAccounts extends ProviderAccounts {
  close(): Promise<void>;
}

type Account = NonNullable<ResolveProviderAccountResponse["providerAccount"]>;

/** An adapter with its connection pool's closing. */
interface Adapter {
  provider: PaymentProvider;
  close(): Promise<void>;
}

/**
 * The projects' provider accounts for services other than payments (links, billing), which own
 * no `provider_accounts`: every call asks the payments service (so a put or a delete takes effect
 * at once, on every replica) and opens the sealed key with SECRETS_KEY here, so the clear key
 * never crosses the wire.
 *
 * `forProject` answers the account hosted payments (payment links, invoices) go to: the
 * project's PayMongo account in the environment, else its Xendit account (the payments service
 * decides: `hostedPayments`), else none (the caller uses the environment's default). `forAccount`
 * answers any account by id. The adapter is PayMongo's or Xendit's by the account's provider,
 * made once per account version (its updatedAt and sealed key), so a replaced key gets a fresh
 * one and the replaced one's pool is closed.
 */
export function createResolvedProviderAccounts(options: ResolvedProviderAccountsOptions): ResolvedProviderAccounts {
  const adapters = new Map<string, { version: string; adapter: Adapter }>();

  async function resolved(request: ResolveRequest): Promise<{ providerAccountId: string; provider: PaymentProvider } | undefined> {
    let answer: ResolveProviderAccountResponse;
    try {
      answer = await options.resolve(request);
    } catch (thrown) {
      const error = fromConnectError(thrown);
      if (error.code === "RESOURCE_NOT_FOUND") return undefined;
      throw error;
    }
    const account = answer.providerAccount;
    if (!account || !answer.sealed) return undefined;
    return { providerAccountId: account.providerAccountId, provider: adapterOf(account, answer.sealed.secretKey) };
  }

  function adapterOf(account: Account, sealedKey: string): PaymentProvider {
    const version = `${account.updatedAt?.seconds ?? 0}.${account.updatedAt?.nanos ?? 0}:${sealedKey}`;
    const cached = adapters.get(account.providerAccountId);
    if (cached?.version === version) return cached.adapter.provider;
    if (options.secretsKey === undefined) {
      throw new AppError("SERVICE_UNAVAILABLE", "SECRETS_KEY is not set on this service: the project's provider account cannot be used.");
    }
    if (!isEnvironment(account.environment) || (account.provider !== "paymongo" && account.provider !== "xendit")) {
      throw new Error(`provider account ${account.providerAccountId} is of an unknown provider or environment`);
    }
    const secretKey = openProviderSecretKey(options.secretsKey, account.providerAccountId, sealedKey);
    const adapter = account.provider === "xendit" ? xenditAdapter(account, secretKey) : paymongoAdapter(account, secretKey);
    adapters.set(account.providerAccountId, { version, adapter });
    // The replaced key's pool is idle from now on (an in-flight call on it finishes first).
    if (cached) void cached.adapter.close().catch(() => undefined);
    return adapter.provider;
  }

  function paymongoAdapter(account: Account, secretKey: string): Adapter {
    const client = createPaymongoClient({ apiBase: options.paymongoApiBase, secretKey });
    const provider = createPaymongoProvider({ client, paymentMethodTypes: account.paymentMethodTypes, livemode: account.environment === "live" });
    return { provider, close: () => client.close() };
  }

  function xenditAdapter(account: Account, secretKey: string): Adapter {
    const channels = xenditAccountChannels(account.paymentMethodTypes);
    const provider = createXenditProvider({ apiBase: options.xenditApiBase, secretKey, ...(channels ? { channels } : {}) });
    return { provider, close: () => provider.close() };
  }

  return {
    forProject: (projectId, environment) => resolved({ by: { case: "project", value: { projectId, environment, provider: "", hostedPayments: true } } }),
    async forAccount(providerAccountId) {
      return (await resolved({ by: { case: "providerAccountId", value: providerAccountId } }))?.provider;
    },
    async close() {
      const open = [...adapters.values()];
      adapters.clear();
      await Promise.all(open.map(({ adapter }) => adapter.close().catch(() => undefined)));
    },
  };
}
