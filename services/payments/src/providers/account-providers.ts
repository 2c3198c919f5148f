import type { Environment, SealingKeys } from "@bayad/kit";
import {
  createPaymongoClient,
  createPaymongoProvider,
  openProviderSecretKey,
  type PaymentProvider,
  type PaymongoProvider,
  type ProviderAccounts,
  type RefundRequest,
} from "@bayad/provider";
import type { ProviderAccountRecord } from "../provider-accounts/provider-account.js";
import type { ProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";

export interface AccountProvidersOptions {
  accounts: ProviderAccountsRepository;
  /** The SECRETS_KEYS ring: opens the accounts' sealed keys. Without it no account can be used. */
  secretsKey: SealingKeys | undefined;
  paymongoApiBase: string;
}

/** One of a project's provider accounts with its adapter: what routing chooses among. */
export interface RoutableAccount {
  account: ProviderAccountRecord;
  provider: PaymentProvider;
}

/** The adapters of the projects' provider accounts, as the payments service uses them. */
export interface AccountProviders extends ProviderAccounts {
  /** The project's accounts in this environment with their adapters, oldest first. */
  accountsOf(projectId: string, environment: Environment): Promise<RoutableAccount[]>;
  /** The account and its adapter, by id (the webhook route and the reconciler start from the account). */
  paymongoOf(providerAccountId: string): Promise<{ account: ProviderAccountRecord; provider: PaymongoProvider } | undefined>;
}

/**
 * Resolves provider accounts to adapters. Every call reads the account (a put or delete takes
 * effect at once, on every replica); the adapter, with its HTTP connection pool, is made once per
 * account version, so a replaced key gets a fresh one.
 */
export function createAccountProviders(options: AccountProvidersOptions): AccountProviders {
  const adapters = new Map<string, { version: number; provider: PaymongoProvider }>();

  function adapterOf(account: ProviderAccountRecord): PaymongoProvider {
    const cached = adapters.get(account._id);
    if (cached && cached.version === account.version) return cached.provider;
    if (options.secretsKey === undefined) throw new Error("SECRETS_KEY is not set: provider accounts cannot be opened");
    const client = createPaymongoClient({ apiBase: options.paymongoApiBase, secretKey: openProviderSecretKey(options.secretsKey, account._id, account.secretKey) });
    const provider = refundsFoundAgain(
      createPaymongoProvider({ client, paymentMethodTypes: account.paymentMethodTypes, livemode: account.environment === "live" }),
    );
    adapters.set(account._id, { version: account.version, provider });
    return provider;
  }

  return {
    async forProject(projectId: string, environment: Environment) {
      const account = await options.accounts.findByProject(projectId, environment);
      return account ? { providerAccountId: account._id, provider: adapterOf(account) } : undefined;
    },
    async accountsOf(projectId: string, environment: Environment) {
      const accounts = await options.accounts.listByProject(projectId, environment);
      return accounts.map((account) => ({ account, provider: adapterOf(account) }));
    },
    async forAccount(providerAccountId: string) {
      const account = await options.accounts.findById(providerAccountId);
      return account ? adapterOf(account) : undefined;
    },
    async paymongoOf(providerAccountId: string) {
      const account = await options.accounts.findById(providerAccountId);
      return account ? { account, provider: adapterOf(account) } : undefined;
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
