import { openSealed } from "@bayad/kit";

/**
 * How a provider account's secrets are sealed: kit's sealText (AES-256-GCM under a key derived
 * from SECRETS_KEY for the purpose), with the account's id as the authenticated context, so a
 * sealed value copied onto another account does not open. The payments service seals; it and
 * every service holding SECRETS_KEY (links, billing) open with the same purposes.
 */
export const providerSecretPurposes = {
  secretKey: "provider-secret-key",
  webhookSecret: "provider-webhook-secret",
} as const;

/** A provider account's secret key in clear; throws when SECRETS_KEY is not the one that sealed it. */
export function openProviderSecretKey(secretsKey: string, providerAccountId: string, sealed: string): string {
  return openSealed(secretsKey, providerSecretPurposes.secretKey, providerAccountId, sealed);
}
