import { ProviderAccountStatus, ProviderAccountStatusSchema, ProviderWebhookStatusSchema, type ProviderAccount } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { dateField, required } from "./json.js";

/**
 * A provider account as the admin API answers it and its events (`provider_account.paused`,
 * `provider_account.resumed`) carry it: never its secret key nor its webhook secret.
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
    webhook: {
      webhookId: a.webhook?.webhookId ?? "",
      status: enumToText(ProviderWebhookStatusSchema, a.webhook?.status ?? 0),
      url: a.webhook?.url ?? "",
    },
    ...dateField("createdAt", a.createdAt),
    ...dateField("updatedAt", a.updatedAt),
  };
}
