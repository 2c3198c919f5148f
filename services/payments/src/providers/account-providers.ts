import type { Environment, SealingKeys } from "@bayad/kit";
import {
  createPaymongoClient,
  createPaymongoProvider,
  createXenditProvider,
  openProviderSecretKey,
  xenditAccountChannels,
  type PaymentProvider,
  type PaymongoProvider,
  type ProviderAccounts,
  type RefundRequest,
  type XenditProvider,
} from "@bayad/provider";
import {
  isPaymongoAccount,
  isXenditAccount,
  type PaymongoAccountRecord,
  type ProviderAccountRecord,
  type XenditAccountRecord,
} from "../provider-accounts/provider-account.js";
import type { ProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";

export interface AccountProvidersOptions {
  accounts: ProviderAccountsRepository;
  /** The SECRETS_KEYS ring: opens the accounts' sealed keys. Without it no account can be used. */
  secretsKey: SealingKeys | undefined;
  paymongoApiBase: string;
  /** XENDIT_API_BASE (https://api.xendit.co). */
  xenditApiBase: string;
}

/** One of a project's provider accounts with its adapter: what routing chooses among. */
export interface RoutableAccount {
  account: ProviderAccountRecord;
  provider: PaymentProvider;
}

/** The adapters of the projects' provider accounts, as the payments service uses them. */
export interface AccountProviders extends ProviderAccounts {
  /** The project's accounts in this environment (PayMongo's and Xendit's) with their adapters, oldest first. */
  accountsOf(projectId: string, environment: Environment): Promise<RoutableAccount[]>;
  /** A PayMongo account and its adapter, by id (its webhook route and the reconciler start from the account); undefined for a Xendit account. */
  paymongoOf(providerAccountId: string): Promise<{ account: PaymongoAccountRecord; provider: PaymongoProvider } | undefined>;
  /** A Xendit account and its adapter, by id (its callback route and the reconciler); undefined for a PayMongo account. */
  xenditOf(providerAccountId: string): Promise<{ account: XenditAccountRecord; provider: XenditProvider } | undefined>;
}

type Adapter = { kind: "paymongo"; provider: PaymongoProvider } | { kind: "xendit"; provider: XenditProvider };

/**
 * Resolves provider accounts to adapters: PayMongo's or Xendit's, by the account's provider.
 * Every call reads the account (a put or delete takes effect at once, on every replica); the
 * adapter, with its HTTP connection pool, is made once per account version, so a replaced key
 * gets a fresh one (and a replaced Xendit adapter's pool is closed).
 *
 * `forProject` answers the environment's oldest account, whichever its provider: the default
 * until routing chooses among `accountsOf`.
 */
export function createAccountProviders(options: AccountProvidersOptions): AccountProviders {
  const adapters = new Map<string, { version: number; adapter: Adapter }>();

  function adapterOf(account: ProviderAccountRecord): Adapter {
    const cached = adapters.get(account._id);
    if (cached && cached.version === account.version) return cached.adapter;
    if (options.secretsKey === undefined) throw new Error("SECRETS_KEY is not set: provider accounts cannot be opened");
    const secretKey = openProviderSecretKey(options.secretsKey, account._id, account.secretKey);
    let adapter: Adapter;
    if (account.provider === "xendit") {
      const channels = xenditAccountChannels(account.paymentMethodTypes);
      adapter = { kind: "xendit", provider: createXenditProvider({ apiBase: options.xenditApiBase, secretKey, ...(channels ? { channels } : {}) }) };
    } else {
      const client = createPaymongoClient({ apiBase: options.paymongoApiBase, secretKey });
      adapter = {
        kind: "paymongo",
        provider: refundsFoundAgain(createPaymongoProvider({ client, paymentMethodTypes: account.paymentMethodTypes, livemode: account.environment === "live" })),
      };
    }
    adapters.set(account._id, { version: account.version, adapter });
    // The replaced key's pool is idle from now on (an in-flight call on it finishes first).
    if (cached?.adapter.kind === "xendit") void cached.adapter.provider.close().catch(() => undefined);
    return adapter;
  }

  return {
    async forProject(projectId: string, environment: Environment) {
      const [account] = await options.accounts.listByProject(projectId, environment);
      return account ? { providerAccountId: account._id, provider: adapterOf(account).provider } : undefined;
    },
    async accountsOf(projectId: string, environment: Environment) {
      const accounts = await options.accounts.listByProject(projectId, environment);
      return accounts.map((account) => ({ account, provider: adapterOf(account).provider }));
    },
    async forAccount(providerAccountId: string) {
      const account = await options.accounts.findById(providerAccountId);
      return account ? adapterOf(account).provider : undefined;
    },
    async paymongoOf(providerAccountId: string) {
      const account = await options.accounts.findById(providerAccountId);
      if (!account || !isPaymongoAccount(account)) return undefined;
      const adapter = adapterOf(account);
      return adapter.kind === "paymongo" ? { account, provider: adapter.provider } : undefined;
    },
    async xenditOf(providerAccountId: string) {
      const account = await options.accounts.findById(providerAccountId);
      if (!account || !isXenditAccount(account)) return undefined;
      const adapter = adapterOf(account);
      return adapter.kind === "xendit" ? { account, provider: adapter.provider } : undefined;
    },
  };
}

/**
 * Asking for a refund again (a retry after a lost answer, a sweep after a crash) must not refund
 * twice. PayMongo's Idempotency-Key covers that for 24 h; past them, only the metadata does: so
 * before creating, look among the payment's refunds for the one Bayad made for this refund id, and
 * answer that one if it exists.
 */
function refundsFoundAgain(provider: PaymongoProvider): PaymongoProvider {
  return {
    ...provider,
    async createRefund(request: RefundRequest, context: Parameters<PaymongoProvider["createRefund"]>[1]) {
      if (request.providerPaymentId !== undefined) {
        const made = (await provider.listRefundsOfPayment(request.providerPaymentId)).find(
          (refund) => refund.metadata.bayad_resource_id === request.refundId,
        );
        if (made) return { providerReference: made.id };
      }
      return provider.createRefund(request, context);
    },
  };
}
