import type { Client } from "@connectrpc/connect";
import { ProviderWebhookStatusSchema, type ProviderAccount, type ProviderAccountsService } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { dateField, required } from "@bayad/public-resources";

/** A provider account as the admin API shows it: never its secret key nor its webhook secret. */
export function providerAccountToJson(account: ProviderAccount | undefined) {
  const a = required(account, "provider account");
  return {
    providerAccountId: a.providerAccountId,
    projectId: a.projectId,
    environment: a.environment,
    provider: a.provider,
    secretKeyLast4: a.secretKeyLast4,
    paymentMethodTypes: a.paymentMethodTypes,
    webhook: {
      webhookId: a.webhook?.webhookId ?? "",
      status: enumToText(ProviderWebhookStatusSchema, a.webhook?.status ?? 0),
      url: a.webhook?.url ?? "",
    },
    ...dateField("createdAt", a.createdAt),
    ...dateField("updatedAt", a.updatedAt),
  };
}

export type ProviderAccountsClient = Client<typeof ProviderAccountsService>;
