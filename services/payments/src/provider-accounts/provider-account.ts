import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ProviderAccountSchema, ProviderAccountStatus, ProviderWebhookStatus, type ProviderAccount } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

export type ProviderName = "paymongo" | "xendit";
export const PROVIDER_NAMES: readonly ProviderName[] = ["paymongo", "xendit"];
export type ProviderWebhookState = "enabled" | "disabled";
export type ProviderAccountState = "active" | "paused";
/** Why an account is paused: PayMongo answered 401 to its key (revoked, rolled). */
export type ProviderAccountPauseReason = "key_refused";

/**
 * A project's account at a payment provider, as stored in the `provider_accounts` collection:
 * at most one per project, environment and provider. `secretKey`, `webhook.secret` (PayMongo)
 * and `callback.token` (Xendit) are sealed with SECRETS_KEY (provider-secrets.ts); nothing else
 * in it is secret. A PayMongo account has `webhook` (registered by Bayad through PayMongo's API),
 * a Xendit account `callback` (Xendit has no API to register v3 callbacks: the merchant sets the
 * URL in Xendit's dashboard and gives Bayad the account's verification token).
 */
export interface ProviderAccountRecord {
  /** providerAccountId: `pa_` and 24 random base62 characters; in the webhook URL, so never guessable. */
  _id: string;
  projectId: string;
  environment: Environment;
  provider: ProviderName;
  /** Sealed: open with openSecretKey. */
  secretKey: string;
  secretKeyLast4: string;
  paymentMethodTypes: string[];
  /** PayMongo accounts only. */
  webhook?: ProviderWebhookRecord;
  /** Xendit accounts only. */
  callback?: ProviderCallbackRecord;
  /** Absent on accounts stored before accounts had a status: active. See account-status.ts. */
  status?: ProviderAccountState;
  statusReason?: ProviderAccountPauseReason;
  /** While paused: when the key is tried again (once). */
  pausedUntil?: Date;
  /** 401s in a row (the pause's backoff grows with them); cleared when the key works or is replaced. */
  keyRefusals?: number;
  /**
   * The provider asked to be left alone until then (429 or 503 with Retry-After): the reconciler
   * asks nothing of it with this account before. Not a pause: the account stays active.
   */
  reconcileAfter?: Date;
  /** Bumped by every write, so that two concurrent puts cannot both replace the same account; also its events' aggregate version. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProviderWebhookRecord {
  webhookId: string;
  /** Sealed: open with openProviderWebhookSecret. */
  secret: string;
  status: ProviderWebhookState;
  url: string;
}

export interface ProviderCallbackRecord {
  /** Sealed: open with openProviderCallbackToken. */
  token: string;
  tokenLast4: string;
  /** `{PUBLIC_URL}/provider-webhooks/xendit/{providerAccountId}`, to be set in Xendit's dashboard. */
  url: string;
}

/** A PayMongo account with its webhook: what the PayMongo-only paths (signatures, webhook upkeep) take. */
export type PaymongoAccountRecord = ProviderAccountRecord & { provider: "paymongo"; webhook: ProviderWebhookRecord };

/** A Xendit account with its callback token. */
export type XenditAccountRecord = ProviderAccountRecord & { provider: "xendit"; callback: ProviderCallbackRecord };

export const isPaymongoAccount = (account: ProviderAccountRecord): account is PaymongoAccountRecord =>
  account.provider === "paymongo" && account.webhook !== undefined;

export const isXenditAccount = (account: ProviderAccountRecord): account is XenditAccountRecord =>
  account.provider === "xendit" && account.callback !== undefined;

const accountStatuses: Record<ProviderAccountState, ProviderAccountStatus> = {
  active: ProviderAccountStatus.ACTIVE,
  paused: ProviderAccountStatus.PAUSED,
};

const webhookStatuses: Record<ProviderWebhookState, ProviderWebhookStatus> = {
  enabled: ProviderWebhookStatus.ENABLED,
  disabled: ProviderWebhookStatus.DISABLED,
};

/** The account as it may be shown: without its secrets. */
export function providerAccountToProto(record: ProviderAccountRecord): ProviderAccount {
  return create(ProviderAccountSchema, {
    providerAccountId: record._id,
    projectId: record.projectId,
    environment: record.environment,
    provider: record.provider,
    secretKeyLast4: record.secretKeyLast4,
    paymentMethodTypes: record.paymentMethodTypes,
    ...(record.webhook ? { webhook: { webhookId: record.webhook.webhookId, status: webhookStatuses[record.webhook.status], url: record.webhook.url } } : {}),
    ...(record.callback ? { callback: { url: record.callback.url, tokenLast4: record.callback.tokenLast4 } } : {}),
    createdAt: timestampFromDate(record.createdAt),
    updatedAt: timestampFromDate(record.updatedAt),
    status: accountStatuses[record.status ?? "active"],
    statusReason: record.status === "paused" ? (record.statusReason ?? "") : "",
    ...(record.status === "paused" && record.pausedUntil ? { pausedUntil: timestampFromDate(record.pausedUntil) } : {}),
  });
}
