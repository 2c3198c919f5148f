import { AppError, newId, type Environment, type Logger, type ResealCounts, type SealingKeys } from "@bayad/kit";
import {
  openProviderSecretKey,
  sealProviderCallbackToken,
  sealProviderSecretKey,
  sealProviderWebhookSecret,
  type XenditAccountSetup,
} from "@bayad/provider";
import type { Outbox } from "@bayad/events";
import type { Store } from "@bayad/store";
import type { ProviderAccountSetup } from "./account-setup.js";
import { writeAccountStatus } from "./account-status.js";
import { isPaymongoAccount, type PaymongoAccountRecord, type ProviderAccountRecord, type ProviderName } from "./provider-account.js";
import type { ProviderAccountsRepository } from "./provider-accounts-repository.js";
import type { PutProviderAccountInput } from "./provider-account-input.js";

export interface ProviderAccountsDeps {
  store: Store;
  repository: ProviderAccountsRepository;
  /** Where a paused account's resumption (a put with a working key) is announced. */
  outbox: Outbox;
  /** PayMongo's account calls (check the key; register, enable and disable webhooks). */
  setup: ProviderAccountSetup;
  /** Xendit's: check the key (Xendit's callback URLs are set in its dashboard, not through its API). */
  xenditSetup: XenditAccountSetup;
  /** The SECRETS_KEYS ring; without it accounts cannot be put (their secrets could not be sealed). */
  secretsKey: SealingKeys | undefined;
  /** The gateway's public base URL (PUBLIC_URL), read when an account is put. */
  publicUrl: () => string | undefined;
  logger: Logger;
  now?: () => Date;
}

/**
 * Where the provider delivers an account's events: the gateway's inbound route for it. PayMongo's
 * is registered by Bayad; Xendit's is shown to be set in Xendit's dashboard.
 */
export function providerWebhookUrl(publicUrl: string, providerAccountId: string, provider: ProviderName = "paymongo"): string {
  return `${publicUrl.replace(/\/+$/, "")}/provider-webhooks/${provider}/${providerAccountId}`;
}

/** Which account of a project a get or delete names: by provider, or the environment's only one. */
export interface AccountScope {
  projectId: string;
  environment: Environment;
  provider?: ProviderName;
}

/**
 * Creates or replaces the project's account of the input's environment at its provider (Xendit:
 * putXenditAccount). For PayMongo the key is checked
 * and a webhook registered at the provider before anything is stored, so a refused key or
 * a failed registration leaves the store as it was. A replacement keeps the providerAccountId
 * (the webhook URL stays the same) and then disables the previous webhook with the previous key,
 * best effort: a webhook left enabled delivers to an account that no longer verifies its
 * signatures, which the inbound route refuses. A replacement of a paused account (its key
 * refused) makes it active again, and announces that (`provider_account.resumed`).
 */
export async function putProviderAccount(
  deps: ProviderAccountsDeps,
  input: PutProviderAccountInput,
): Promise<{ account: ProviderAccountRecord; created: boolean }> {
  const secretsKey = requireSecretsKey(deps);
  const publicUrl = deps.publicUrl();
  if (!publicUrl) {
    throw new AppError("SERVICE_UNAVAILABLE", "PUBLIC_URL is not set on the payments service: the provider's webhook has no URL to deliver to.");
  }
  if (input.provider === "xendit") return putXenditAccount(deps, input, secretsKey, publicUrl);
  const existing = await deps.repository.findByProvider(input.projectId, input.environment, "paymongo");
  const providerAccountId = existing?._id ?? newId("pa");
  const url = providerWebhookUrl(publicUrl, providerAccountId);

  await deps.setup.checkKey(input.secretKey);
  const registered = await deps.setup.registerWebhook(input.secretKey, url);
  const now = deps.now?.() ?? new Date();
  const record: ProviderAccountRecord = {
    _id: providerAccountId,
    projectId: input.projectId,
    environment: input.environment,
    provider: input.provider,
    secretKey: sealProviderSecretKey(secretsKey, providerAccountId, input.secretKey),
    secretKeyLast4: input.secretKey.slice(-4),
    paymentMethodTypes: input.paymentMethodTypes,
    // The key was just checked with the provider: a paused account is active again.
    status: "active",
    webhook: {
      webhookId: registered.webhookId,
      secret: sealProviderWebhookSecret(secretsKey, providerAccountId, registered.webhookSecret),
      status: registered.status,
      url,
    },
    version: existing ? existing.version + 1 : 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };

  let stored: boolean;
  try {
    stored = existing ? await writeAccountStatus(deps, existing, record) : await deps.repository.insert(record);
  } catch (error) {
    // The store refused the write (full disk, unreachable): the webhook just registered would
    // deliver to an account that does not exist. Should the write have landed after all, the
    // reconciler enables the account's disabled webhook again.
    if (existing?.webhook?.webhookId !== registered.webhookId) {
      await disableQuietly(deps, input.secretKey, registered.webhookId, record, "the account could not be stored");
    }
    throw error;
  }
  if (!stored) {
    // Another put or delete of this project and environment came first: ours registered a
    // webhook nobody will keep, unless the winner took over the same one (same key, same URL).
    const winner = await deps.repository.findByProvider(input.projectId, input.environment, "paymongo");
    if (winner?.webhook?.webhookId !== registered.webhookId) {
      await disableQuietly(deps, input.secretKey, registered.webhookId, record, "a concurrent change won");
    }
    throw new AppError("CONCURRENT_MODIFICATION", "The provider account changed while this request was putting it; retry the request.");
  }
  deps.logger.info(
    { providerAccountId, projectId: record.projectId, environment: record.environment, webhookId: registered.webhookId, created: !existing },
    "provider account put",
  );
  // The same key at the same URL gets its webhook back from the provider (registration takes over
  // a webhook already at the URL): that one is the account's now, not a previous one.
  if (existing && isPaymongoAccount(existing) && existing.webhook.webhookId !== registered.webhookId) await disablePrevious(deps, existing, secretsKey);
  return { account: record, created: !existing };
}

/**
 * Creates or replaces the project's Xendit account of the environment. The key is checked with
 * Xendit before anything is stored (a refused key is VALIDATION_FAILED naming secretKey and
 * leaves the store as it was). Nothing is registered: Xendit has no API for v3 callback URLs,
 * so the account's callback URL is answered for the merchant to set in Xendit's dashboard, and
 * the verification token they copied from there is stored sealed. A replacement keeps the
 * providerAccountId, so the URL set in the dashboard stays right.
 */
async function putXenditAccount(
  deps: ProviderAccountsDeps,
  input: PutProviderAccountInput,
  secretsKey: SealingKeys,
  publicUrl: string,
): Promise<{ account: ProviderAccountRecord; created: boolean }> {
  const token = input.callbackToken ?? "";
  const existing = await deps.repository.findByProvider(input.projectId, input.environment, "xendit");
  const providerAccountId = existing?._id ?? newId("pa");
  await deps.xenditSetup.checkKey(input.secretKey);
  const now = deps.now?.() ?? new Date();
  const record: ProviderAccountRecord = {
    _id: providerAccountId,
    projectId: input.projectId,
    environment: input.environment,
    provider: "xendit",
    secretKey: sealProviderSecretKey(secretsKey, providerAccountId, input.secretKey),
    secretKeyLast4: input.secretKey.slice(-4),
    paymentMethodTypes: input.paymentMethodTypes,
    status: "active",
    callback: {
      token: sealProviderCallbackToken(secretsKey, providerAccountId, token),
      tokenLast4: token.slice(-4),
      url: providerWebhookUrl(publicUrl, providerAccountId, "xendit"),
    },
    version: existing ? existing.version + 1 : 1,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  const stored = existing ? await writeAccountStatus(deps, existing, record) : await deps.repository.insert(record);
  if (!stored) throw new AppError("CONCURRENT_MODIFICATION", "The provider account changed while this request was putting it; retry the request.");
  deps.logger.info({ providerAccountId, projectId: record.projectId, environment: record.environment, provider: "xendit", created: !existing }, "provider account put");
  return { account: record, created: !existing };
}

/**
 * The account a scope names: the project's account at `provider` in the environment, or, with no
 * provider named, the environment's only account (VALIDATION_FAILED naming `provider` when it
 * holds more than one).
 */
export async function getProviderAccount(deps: ProviderAccountsDeps, scope: AccountScope): Promise<ProviderAccountRecord> {
  const { projectId, environment, provider } = scope;
  if (provider !== undefined) {
    const account = await deps.repository.findByProvider(projectId, environment, provider);
    if (!account) throw new AppError("RESOURCE_NOT_FOUND", `Project ${projectId} has no ${provider} account in ${environment} mode.`);
    return account;
  }
  const accounts = await deps.repository.listByProject(projectId, environment);
  if (accounts.length === 0) throw noAccount(projectId, environment);
  if (accounts.length > 1) {
    throw new AppError("VALIDATION_FAILED", "The project holds more than one provider account in this mode: name the provider.", {
      details: [`provider: required when the ${environment} mode holds several accounts (${accounts.map((account) => account.provider).join(", ")})`],
    });
  }
  return accounts[0];
}

/** Every account of the project, both environments, oldest first. */
export function listProviderAccounts(deps: ProviderAccountsDeps, projectId: string): Promise<ProviderAccountRecord[]> {
  return deps.repository.listAllOfProject(projectId);
}

/** Removes the account, then disables its PayMongo webhook (best effort); answers what was removed. */
export async function deleteProviderAccount(deps: ProviderAccountsDeps, scope: AccountScope): Promise<ProviderAccountRecord> {
  const account = await getProviderAccount(deps, scope);
  if (!(await deps.repository.remove(account))) {
    throw new AppError("CONCURRENT_MODIFICATION", "The provider account changed while this request was deleting it; retry the request.");
  }
  deps.logger.info({ providerAccountId: account._id, projectId: scope.projectId, environment: scope.environment, provider: account.provider }, "provider account deleted");
  // A Xendit account registered nothing: its callback URL stays in Xendit's dashboard, and deliveries to it are refused as an unknown account's.
  if (!isPaymongoAccount(account)) return account;
  if (deps.secretsKey) await disablePrevious(deps, account, deps.secretsKey);
  else deps.logger.warn({ providerAccountId: account._id, webhookId: account.webhook.webhookId }, "removed provider account's webhook not disabled: SECRETS_KEY is not set");
  return account;
}

/** The account by project, environment (and provider), or by its id: for services that open its secrets themselves. */
export async function resolveProviderAccount(
  deps: ProviderAccountsDeps,
  by: (AccountScope & { hostedPayments?: boolean }) | { providerAccountId: string },
): Promise<ProviderAccountRecord> {
  if ("providerAccountId" in by) {
    const account = await deps.repository.findById(by.providerAccountId);
    if (!account) throw new AppError("RESOURCE_NOT_FOUND", `No provider account with id ${by.providerAccountId}.`);
    return account;
  }
  if (by.hostedPayments) return hostedPaymentAccount(deps, by);
  return getProviderAccount(deps, by);
}

/** The providers hosted payments go to, in the order they are looked for. */
export const HOSTED_PAYMENT_PROVIDERS: readonly ProviderName[] = ["paymongo", "xendit"];

/**
 * The account a project's hosted payments (payment links, subscription invoices) of the
 * environment are made at: its PayMongo account, else its Xendit account (a project holding
 * only Xendit uses links and invoices too), else RESOURCE_NOT_FOUND (the caller falls back to the
 * environment's default: the sandbox in test mode, PROVIDER_NOT_CONFIGURED in live). Routing
 * does not apply: it spreads checkouts and payment intents, whose flows both accounts serve.
 */
async function hostedPaymentAccount(deps: ProviderAccountsDeps, scope: AccountScope): Promise<ProviderAccountRecord> {
  if (scope.provider !== undefined) {
    throw new AppError("VALIDATION_FAILED", undefined, { details: ["provider: must be empty when asking for the hosted payments' account"] });
  }
  for (const provider of HOSTED_PAYMENT_PROVIDERS) {
    const account = await deps.repository.findByProvider(scope.projectId, scope.environment, provider);
    if (account) return account;
  }
  throw noAccount(scope.projectId, scope.environment);
}

/** Seals every account's secrets again under the newest key of SECRETS_KEYS (ResealSecrets). */
export function resealProviderSecrets(deps: ProviderAccountsDeps): Promise<ResealCounts> {
  return deps.repository.resealSecrets(requireSecretsKey(deps));
}

function requireSecretsKey(deps: ProviderAccountsDeps): SealingKeys {
  if (!deps.secretsKey) {
    throw new AppError("SERVICE_UNAVAILABLE", "SECRETS_KEY is not set on the payments service: provider secrets cannot be stored.");
  }
  return deps.secretsKey;
}

function noAccount(projectId: string, environment: Environment): AppError {
  return new AppError("RESOURCE_NOT_FOUND", `Project ${projectId} has no provider account in ${environment} mode.`);
}

/** Disables a replaced or removed account's webhook with that account's own key. */
async function disablePrevious(deps: ProviderAccountsDeps, previous: PaymongoAccountRecord, secretsKey: SealingKeys): Promise<void> {
  let previousKey: string;
  try {
    previousKey = openProviderSecretKey(secretsKey, previous._id, previous.secretKey);
  } catch {
    deps.logger.warn({ providerAccountId: previous._id, webhookId: previous.webhook.webhookId }, "previous provider webhook not disabled: its key does not open with SECRETS_KEY");
    return;
  }
  await disableQuietly(deps, previousKey, previous.webhook.webhookId, previous, "replaced or removed");
}

async function disableQuietly(deps: ProviderAccountsDeps, secretKey: string, webhookId: string, account: ProviderAccountRecord, why: string): Promise<void> {
  try {
    await deps.setup.disableWebhook(secretKey, webhookId);
    deps.logger.info({ providerAccountId: account._id, webhookId, why }, "provider webhook disabled");
  } catch (error) {
    // Logged by code and message only: an adapter's error must not carry the key into the log.
    deps.logger.warn(
      { providerAccountId: account._id, webhookId, why, error: error instanceof AppError ? error.code : error instanceof Error ? error.name : "unknown" },
      "provider webhook could not be disabled",
    );
  }
}
