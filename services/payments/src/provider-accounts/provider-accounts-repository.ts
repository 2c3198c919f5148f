import { isDuplicateKeyError, type CollectionDef, type Session, type Store } from "@bayad/store";
import { resealCollection, type Environment, type ResealCounts, type SealingKeys } from "@bayad/kit";
import { providerAccountSealedValues } from "@bayad/provider";
import type { ProviderAccountRecord, ProviderName, ProviderWebhookState } from "./provider-account.js";

const PROJECT_PROVIDER_INDEX = "provider_accounts_project_provider";

const providerAccountsCollection: CollectionDef = {
  name: "provider_accounts",
  indexes: [
    // One account per project, environment and provider: a second insert for the same three is refused.
    { name: PROJECT_PROVIDER_INDEX, keys: { projectId: 1, environment: 1, provider: 1 }, unique: true },
  ],
  // One account per project and environment, before Xendit: it would refuse a project's second
  // account, so it is retired in the same release that declares its successor (which, built
  // first, keeps guarding one account per provider); a pod of the release before still puts one
  // account per environment, as its code looks no further.
  retiredIndexes: ["provider_accounts_project"],
};

/** Fields a replacement removes when its record has none. */
const OPTIONAL_FIELDS = ["statusReason", "pausedUntil", "keyRefusals", "reconcileAfter"] as const;

/**
 * The only code that knows the `provider_accounts` collection. Lookups by providerAccountId are
 * unscoped on purpose: a provider's webhook names the account in its URL, and the account tells
 * the project and environment.
 */
export function createProviderAccountsRepository(store: Store) {
  const accounts = store.collection<ProviderAccountRecord>(providerAccountsCollection);
  return {
    collection: accounts,

    /** The project's account at `provider` in this environment. */
    findByProvider(projectId: string, environment: Environment, provider: ProviderName): Promise<ProviderAccountRecord | null> {
      return accounts.findOne({ projectId, environment, provider });
    },

    /** The project's accounts in this environment, oldest first: the accounts routing chooses among. */
    listByProject(projectId: string, environment: Environment): Promise<ProviderAccountRecord[]> {
      return accounts.find({ projectId, environment }, { sort: { createdAt: 1 }, limit: 100 });
    },

    /** Every account of the project, both environments, oldest first (at most one per environment and provider). */
    listAllOfProject(projectId: string): Promise<ProviderAccountRecord[]> {
      return accounts.find({ projectId }, { sort: { createdAt: 1 }, limit: 100 });
    },

    findById(providerAccountId: string): Promise<ProviderAccountRecord | null> {
      return accounts.findOne({ _id: providerAccountId });
    },

    /** Seals every account's secrets again under the ring's newest key (no version bump: the owner sees nothing change). */
    resealSecrets(keys: SealingKeys): Promise<ResealCounts> {
      return resealCollection(accounts, keys, providerAccountSealedValues);
    },

    /** Inserts a new account; false when the project already has one at this provider in this environment (a concurrent put won). */
    async insert(record: ProviderAccountRecord): Promise<boolean> {
      try {
        await accounts.insertOne(record);
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error, PROJECT_PROVIDER_INDEX)) return false;
        throw error;
      }
    },

    /**
     * Replaces the account if it is still at `version`; false when another write came first. The
     * optional fields the record leaves out (a pause's, a Retry-After's) are removed.
     */
    async replace(record: ProviderAccountRecord, version: number, session?: Session): Promise<boolean> {
      const { _id, ...fields } = record;
      const absent = OPTIONAL_FIELDS.filter((name) => record[name] === undefined);
      const result = await accounts.updateOne(
        { _id, version },
        { $set: { ...fields, version: version + 1 }, ...(absent.length > 0 ? { $unset: Object.fromEntries(absent.map((name) => [name, true] as const)) } : {}) },
        session ? { session } : undefined,
      );
      return result.matched === 1;
    },

    /** Accounts the reconciler must not use now: paused, or waiting out a Retry-After. */
    findUnusable(now: Date): Promise<ProviderAccountRecord[]> {
      return accounts.find({ $or: [{ status: "paused" }, { reconcileAfter: { $gt: now } }] }, { limit: 10_000 });
    },

    /** Paused accounts whose key is due to be tried again. */
    findDueForKeyCheck(now: Date, limit: number): Promise<ProviderAccountRecord[]> {
      return accounts.find({ status: "paused", pausedUntil: { $lte: now } }, { sort: { pausedUntil: 1 }, limit });
    },

    /** Records a provider's Retry-After: no version bump, as nothing the account's owner sees changes. */
    async deferReconciliation(providerAccountId: string, until: Date): Promise<void> {
      await accounts.updateOne({ _id: providerAccountId }, { $set: { reconcileAfter: until } });
    },

    /** Removes the account if it is still at `version`; false when another write came first. */
    async remove(record: ProviderAccountRecord): Promise<boolean> {
      return (await accounts.deleteOne({ _id: record._id, version: record.version })) === 1;
    },

    /** Records what PayMongo says of the account's webhook now (the reconciler re-enables a disabled one). */
    async setWebhookStatus(providerAccountId: string, webhookId: string, status: ProviderWebhookState, now = new Date()): Promise<boolean> {
      const result = await accounts.updateOne(
        { _id: providerAccountId, "webhook.webhookId": webhookId },
        { $set: { "webhook.status": status, updatedAt: now }, $inc: { version: 1 } },
      );
      return result.matched === 1;
    },

    /**
     * Replaces the account's webhook by one registered afresh (its secret sealed with
     * sealWebhookSecret for this account), if the account still has `previousWebhookId`.
     */
    async replaceWebhook(
      providerAccountId: string,
      previousWebhookId: string,
      webhook: NonNullable<ProviderAccountRecord["webhook"]>,
      now = new Date(),
    ): Promise<boolean> {
      const result = await accounts.updateOne(
        { _id: providerAccountId, "webhook.webhookId": previousWebhookId },
        { $set: { webhook, updatedAt: now }, $inc: { version: 1 } },
      );
      return result.matched === 1;
    },
  };
}

export type ProviderAccountsRepository = ReturnType<typeof createProviderAccountsRepository>;
