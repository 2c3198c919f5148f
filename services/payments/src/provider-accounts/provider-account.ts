import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ProviderAccountSchema, ProviderAccountStatus, ProviderWebhookStatus, type ProviderAccount } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

export type ProviderName = "paymongo";
export type ProviderWebhookState = "enabled" | "disabled";
export type ProviderAccountState = "active" | "paused";
/** Why an account is paused: PayMongo answered 401 to its key (revoked, rolled). */
export type ProviderAccountPauseReason = "key_refused";

/**
 * A project's account at a payment provider, as stored in the `provider_accounts` collection:
 * one per project and environment. `secretKey` and `webhook.secret` are sealed with SECRETS_KEY
 * (provider-secrets.ts); nothing else in it is secret.
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
  webhook: {
    webhookId: string;
    /** Sealed: open with openWebhookSecret. */
    secret: string;
    status: ProviderWebhookState;
    url: string;
  };
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
    webhook: { webhookId: record.webhook.webhookId, status: webhookStatuses[record.webhook.status], url: record.webhook.url },
    createdAt: timestampFromDate(record.createdAt),
    updatedAt: timestampFromDate(record.updatedAt),
    status: accountStatuses[record.status ?? "active"],
    statusReason: record.status === "paused" ? (record.statusReason ?? "") : "",
    ...(record.status === "paused" && record.pausedUntil ? { pausedUntil: timestampFromDate(record.pausedUntil) } : {}),
  });
}
