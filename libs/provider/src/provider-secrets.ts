import { openSealed, sealText, type SealedValue, type SealingKeys } from "@bayad/kit";

/**
 * How a provider account's secrets are sealed: kit's sealText (AES-256-GCM under a key derived
 * from the SECRETS_KEYS ring's newest key for the purpose), with the account's id as the
 * authenticated context, so a sealed value copied onto another account does not open. The
 * payments service seals; it and every service holding the ring (links, billing) open.
 */
export const providerSecretPurposes = {
  secretKey: "provider-secret-key",
  webhookSecret: "provider-webhook-secret",
  /** A Xendit account's callback verification token (the `x-callback-token` its callbacks carry). */
  callbackToken: "provider-callback-token",
} as const;

export function sealProviderSecretKey(keys: SealingKeys, providerAccountId: string, secretKey: string): string {
  return sealText(keys, providerSecretPurposes.secretKey, providerAccountId, secretKey);
}

export function sealProviderWebhookSecret(keys: SealingKeys, providerAccountId: string, webhookSecret: string): string {
  return sealText(keys, providerSecretPurposes.webhookSecret, providerAccountId, webhookSecret);
}

export function sealProviderCallbackToken(keys: SealingKeys, providerAccountId: string, callbackToken: string): string {
  return sealText(keys, providerSecretPurposes.callbackToken, providerAccountId, callbackToken);
}

/** A provider account's secret key in clear; throws when no key of the ring sealed it. */
export function openProviderSecretKey(keys: SealingKeys, providerAccountId: string, sealed: string): string {
  return openSealed(keys, providerSecretPurposes.secretKey, providerAccountId, sealed);
}

/** A provider account's webhook secret in clear (it verifies Paymongo-Signature); throws like openProviderSecretKey. */
export function openProviderWebhookSecret(keys: SealingKeys, providerAccountId: string, sealed: string): string {
  return openSealed(keys, providerSecretPurposes.webhookSecret, providerAccountId, sealed);
}

/** A Xendit account's callback verification token in clear (it checks `x-callback-token`); throws like openProviderSecretKey. */
export function openProviderCallbackToken(keys: SealingKeys, providerAccountId: string, sealed: string): string {
  return openSealed(keys, providerSecretPurposes.callbackToken, providerAccountId, sealed);
}

/**
 * The sealed values of a stored account (the payments service's `provider_accounts`), for a
 * reseal: its key, and its PayMongo webhook's secret or its Xendit callback token.
 */
export function providerAccountSealedValues(account: {
  _id: string;
  secretKey: string;
  webhook?: { secret: string };
  callback?: { token: string };
}): SealedValue[] {
  return [
    { path: "secretKey", purpose: providerSecretPurposes.secretKey, context: account._id, sealed: account.secretKey },
    ...(account.webhook ? [{ path: "webhook.secret", purpose: providerSecretPurposes.webhookSecret, context: account._id, sealed: account.webhook.secret }] : []),
    ...(account.callback ? [{ path: "callback.token", purpose: providerSecretPurposes.callbackToken, context: account._id, sealed: account.callback.token }] : []),
  ];
}
