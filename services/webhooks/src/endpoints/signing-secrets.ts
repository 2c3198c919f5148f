import { randomBytes } from "node:crypto";
import { openSealed, sealText, type SealedValue, type SealingKeys } from "@bayad/kit";
import { Webhook } from "standardwebhooks";

/** One signing secret of an endpoint, sealed with the SECRETS_KEYS ring (bound to the endpoint's id). */
export interface StoredSigningSecret {
  sealed: string;
  createdAt: Date;
  /** Set on the previous secret by a rotation: it signs beside the current one until then. */
  expiresAt?: Date;
}

const SEAL_PURPOSE = "webhook-endpoint-secret";

/** How long the previous secret keeps signing after a rotation, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** A new secret in the Standard Webhooks form: `whsec_` and the base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export function sealSigningSecret(secretsKey: SealingKeys, endpointId: string, secret: string, now: Date): StoredSigningSecret {
  return { sealed: sealText(secretsKey, SEAL_PURPOSE, endpointId, secret), createdAt: now };
}

export function openSigningSecret(secretsKey: SealingKeys, endpointId: string, stored: StoredSigningSecret): string {
  return openSealed(secretsKey, SEAL_PURPOSE, endpointId, stored.sealed);
}

/** The sealed secrets of a stored endpoint, for a reseal. */
export function signingSecretSealedValues(endpoint: { _id: string; secrets: StoredSigningSecret[] }): SealedValue[] {
  return endpoint.secrets.map((secret, index) => ({ path: `secrets.${index}.sealed`, purpose: SEAL_PURPOSE, context: endpoint._id, sealed: secret.sealed }));
}

/** The current secret: the one without an expiry (a rotation puts it first). */
export function currentSecret(secrets: StoredSigningSecret[]): StoredSigningSecret {
  const current = secrets.find((secret) => secret.expiresAt === undefined);
  if (!current) throw new Error("a webhook endpoint has no current signing secret");
  return current;
}

/**
 * The secrets after a rotation: `next` is current and the current one signs beside it until
 * `now` + 24 h. Any older secret is dropped: at most two ever sign.
 */
export function rotatedSecrets(secrets: StoredSigningSecret[], next: StoredSigningSecret, now: Date): StoredSigningSecret[] {
  const previous = currentSecret(secrets);
  return [next, { ...previous, expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS) }];
}

/**
 * The `webhook-signature` header of a delivery: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * for each secret still signing at `now`, space separated (the current one first), computed by
 * the `standardwebhooks` package that receivers verify with.
 */
export function signatureHeader(
  secretsKey: SealingKeys,
  endpointId: string,
  secrets: StoredSigningSecret[],
  message: { id: string; timestamp: Date; body: string },
  now: Date,
): string {
  return secrets
    .filter((secret) => secret.expiresAt === undefined || secret.expiresAt.getTime() > now.getTime())
    .map((secret) => new Webhook(openSigningSecret(secretsKey, endpointId, secret)).sign(message.id, message.timestamp, message.body))
    .join(" ");
}
