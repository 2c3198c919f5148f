import { openSealed, sealText } from "@bayad/kit";
import { providerSecretPurposes } from "@bayad/provider";
import type { ProviderAccountRecord } from "./provider-account.js";

/**
 * How a provider account's secrets are sealed: kit's sealText (AES-256-GCM under a key derived
 * from SECRETS_KEY for the purpose), with the account's id as the authenticated context, so a
 * sealed value copied onto another account does not open. The purposes are @bayad/provider's:
 * links and billing, which hold SECRETS_KEY too, open what ResolveProviderAccount hands them
 * with them (createResolvedProviderAccounts).
 */
export { providerSecretPurposes };

export function sealSecretKey(secretsKey: string, providerAccountId: string, secretKey: string): string {
  return sealText(secretsKey, providerSecretPurposes.secretKey, providerAccountId, secretKey);
}

export function sealWebhookSecret(secretsKey: string, providerAccountId: string, webhookSecret: string): string {
  return sealText(secretsKey, providerSecretPurposes.webhookSecret, providerAccountId, webhookSecret);
}

/** The account's provider secret key in clear; throws when SECRETS_KEY is not the one that sealed it. */
export function openSecretKey(account: Pick<ProviderAccountRecord, "_id" | "secretKey">, secretsKey: string): string {
  return openSealed(secretsKey, providerSecretPurposes.secretKey, account._id, account.secretKey);
}

/** The account's webhook secret in clear (it verifies Paymongo-Signature); throws like openSecretKey. */
export function openWebhookSecret(account: Pick<ProviderAccountRecord, "_id" | "webhook">, secretsKey: string): string {
  return openSealed(secretsKey, providerSecretPurposes.webhookSecret, account._id, account.webhook.secret);
}
