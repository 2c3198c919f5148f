import { AppError, type Environment } from "@bayad/kit";
import { ProviderNoAnswerError, type PaymentProvider } from "./port.js";

/**
 * A project's own provider accounts (live mode, and test mode with a provider's test key): the
 * adapter of the account a project has for an environment, or of an account by its id.
 */
export interface ProviderAccounts {
  forProject(projectId: string, environment: Environment): Promise<{ providerAccountId: string; provider: PaymentProvider } | undefined>;
  forAccount(providerAccountId: string): Promise<PaymentProvider | undefined>;
}

/**
 * The providers a service may use: each environment's default (the sandbox serves test mode; live
 * mode has none unless given, as in tests), and the projects' own accounts, which win over the
 * default for resources made while they exist.
 */
export interface PaymentProviders {
  test: PaymentProvider;
  live?: PaymentProvider;
  accounts?: ProviderAccounts;
}

/** Where a new resource goes: the project's account for its environment, else the environment's default. */
export interface ProviderChoice {
  provider: PaymentProvider;
  /** Set when the provider is a project's own account; kept on the resource so later calls reach the same account. */
  providerAccountId?: string;
}

/** The default provider of `environment`, or 409 PROVIDER_NOT_CONFIGURED before anything is written. */
export function providerOf(providers: PaymentProviders, environment: Environment): PaymentProvider {
  const provider = providers[environment];
  if (!provider) throw new AppError("PROVIDER_NOT_CONFIGURED", `No payment provider is configured for ${environment} mode.`);
  return provider;
}

/** The provider a new resource of this project and environment is made with (PROVIDER_NOT_CONFIGURED when none). */
export async function chooseProvider(
  providers: PaymentProviders,
  tenant: { projectId: string; environment: Environment },
): Promise<ProviderChoice> {
  const account = await providers.accounts?.forProject(tenant.projectId, tenant.environment);
  if (account) return account;
  return { provider: providerOf(providers, tenant.environment) };
}

/**
 * The provider an existing resource was made with: its provider account's, or the environment's
 * default when it was made without one. An account removed since answers PROVIDER_NOT_CONFIGURED:
 * its resources cannot reach the provider any more.
 */
export async function providerOfResource(
  providers: PaymentProviders,
  resource: { environment: Environment; providerAccountId?: string },
): Promise<PaymentProvider> {
  if (resource.providerAccountId === undefined) return providerOf(providers, resource.environment);
  const provider = await providers.accounts?.forAccount(resource.providerAccountId);
  if (!provider) {
    throw new AppError("PROVIDER_NOT_CONFIGURED", `The provider account ${resource.providerAccountId} of this ${resource.environment} resource no longer exists.`);
  }
  return provider;
}

/**
 * Runs a provider call. No answer at all means its outcome is unknown: 409
 * PAYMENT_OUTCOME_UNKNOWN, and reconciliation (or a retry with the same key) settles it.
 */
export async function askProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderNoAnswerError) {
      throw new AppError("PAYMENT_OUTCOME_UNKNOWN", "The payment provider has not answered; retry with the same Idempotency-Key.");
    }
    throw error;
  }
}
