import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ProviderAccountSchema, ProviderWebhookStatus, type ProviderAccount } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

export type ProviderName = "paymongo";
export type ProviderWebhookState = "enabled" | "disabled";

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
  /** Bumped by every write, so that two concurrent puts cannot both replace the same account. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

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
  });
}
