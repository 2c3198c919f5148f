import { ProviderAccountStatus, ProviderAccountStatusSchema, ProviderWebhookStatusSchema, type ProviderAccount } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { dateField, required } from "./json.js";

/**
 * A provider account as the admin API answers it and its events (`provider_account.paused`,
 * `provider_account.resumed`) carry it: never its secret key, its webhook secret nor its callback
 * token. A PayMongo account has `webhook`, a Xendit account `callback` (the URL to set in Xendit's
 * dashboard).
 */
export function providerAccountToJson(account: ProviderAccount | undefined) {
  const a = required(account, "provider account");
  // Accounts stored before accounts had a status are active.
  const status = a.status === ProviderAccountStatus.UNSPECIFIED ? "active" : enumToText(ProviderAccountStatusSchema, a.status);
  return {
    providerAccountId: a.providerAccountId,
    projectId: a.projectId,
    environment: a.environment,
    provider: a.provider,
    secretKeyLast4: a.secretKeyLast4,
    paymentMethodTypes: a.paymentMethodTypes,
    status,
    ...(status === "paused" && a.statusReason ? { statusReason: a.statusReason } : {}),
    ...(status === "paused" ? dateField("pausedUntil", a.pausedUntil) : {}),
    ...(a.webhook
      ? { webhook: { webhookId: a.webhook.webhookId, status: enumToText(ProviderWebhookStatusSchema, a.webhook.status), url: a.webhook.url } }
      : {}),
    ...(a.callback ? { callback: { url: a.callback.url, tokenLast4: a.callback.tokenLast4 } } : {}),
    ...dateField("createdAt", a.createdAt),
    ...dateField("updatedAt", a.updatedAt),
  };
}
