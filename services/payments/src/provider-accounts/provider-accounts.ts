import { AppError, newId, type Environment, type Logger, type ResealCounts, type SealingKeys } from "@bayad/kit";
import { openProviderSecretKey, sealProviderSecretKey, sealProviderWebhookSecret } from "@bayad/provider";
import type { Outbox } from "@bayad/events";
import type { Store } from "@bayad/store";
import type { ProviderAccountSetup } from "./account-setup.js";
import { writeAccountStatus } from "./account-status.js";
import type { ProviderAccountRecord } from "./provider-account.js";
import type { ProviderAccountsRepository } from "./provider-accounts-repository.js";
import type { PutProviderAccountInput } from "./provider-account-input.js";

export interface ProviderAccountsDeps {
  store: Store;
  repository: ProviderAccountsRepository;
  /** Where a paused account's resumption (a put with a working key) is announced. */
  outbox: Outbox;
  /** The provider's account calls (PayMongo's adapter). */
  setup: ProviderAccountSetup;
  /** The SECRETS_KEYS ring; without it accounts cannot be put (their secrets could not be sealed). */
  secretsKey: SealingKeys | undefined;
  /** The gateway's public base URL (PUBLIC_URL), read when an account is put. */
  publicUrl: () => string | undefined;
  logger: Logger;
  now?: () => Date;
}

/** Where PayMongo delivers an account's events: the gateway's inbound route for it. */
export function providerWebhookUrl(publicUrl: string, providerAccountId: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/provider-webhooks/paymongo/${providerAccountId}`;
}

/**
 * Creates or replaces the account of the input's project and environment. The key is checked
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
  const existing = await deps.repository.findByProject(input.projectId, input.environment);
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
    if (existing?.webhook.webhookId !== registered.webhookId) {
      await disableQuietly(deps, input.secretKey, registered.webhookId, record, "the account could not be stored");
    }
    throw error;
  }
  if (!stored) {
    // Another put or delete of this project and environment came first: ours registered a
    // webhook nobody will keep, unless the winner took over the same one (same key, same URL).
    const winner = await deps.repository.findByProject(input.projectId, input.environment);
    if (winner?.webhook.webhookId !== registered.webhookId) {
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
  if (existing && existing.webhook.webhookId !== registered.webhookId) await disablePrevious(deps, existing, secretsKey);
  return { account: record, created: !existing };
}

export async function getProviderAccount(deps: ProviderAccountsDeps, projectId: string, environment: Environment): Promise<ProviderAccountRecord> {
  const account = await deps.repository.findByProject(projectId, environment);
  if (!account) throw noAccount(projectId, environment);
  return account;
}

/** Removes the account, then disables its webhook at the provider (best effort); answers what was removed. */
export async function deleteProviderAccount(deps: ProviderAccountsDeps, projectId: string, environment: Environment): Promise<ProviderAccountRecord> {
  const account = await getProviderAccount(deps, projectId, environment);
  if (!(await deps.repository.remove(account))) {
    throw new AppError("CONCURRENT_MODIFICATION", "The provider account changed while this request was deleting it; retry the request.");
  }
  deps.logger.info({ providerAccountId: account._id, projectId, environment }, "provider account deleted");
  if (deps.secretsKey) await disablePrevious(deps, account, deps.secretsKey);
  else deps.logger.warn({ providerAccountId: account._id, webhookId: account.webhook.webhookId }, "removed provider account's webhook not disabled: SECRETS_KEY is not set");
  return account;
}

/** The account by project and environment, or by its id: for services that open its secrets themselves. */
export async function resolveProviderAccount(
  deps: ProviderAccountsDeps,
  by: { projectId: string; environment: Environment } | { providerAccountId: string },
): Promise<ProviderAccountRecord> {
  if ("providerAccountId" in by) {
    const account = await deps.repository.findById(by.providerAccountId);
    if (!account) throw new AppError("RESOURCE_NOT_FOUND", `No provider account with id ${by.providerAccountId}.`);
    return account;
  }
  return getProviderAccount(deps, by.projectId, by.environment);
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
async function disablePrevious(deps: ProviderAccountsDeps, previous: ProviderAccountRecord, secretsKey: SealingKeys): Promise<void> {
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
