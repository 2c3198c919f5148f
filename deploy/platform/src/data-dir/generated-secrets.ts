import { envOptional, randomBase62, type Env } from "@bayad/kit";
import type { ComponentName } from "../services-mode/components.js";

/**
 * The secrets a launcher draws when their variable is unset, each long enough for its reader.
 * With a DATA_DIR they are drawn once and kept in its secrets.json (data-dir.ts), so that what
 * they key or seal (API access, idempotency records, signing keys, OTP codes, cursors, sandbox
 * pages, provider and webhook endpoint secrets) still opens after a restart.
 */
export const generatedSecrets = {
  ADMIN_API_KEY: () => `adm_${randomBase62(32)}`,
  GATEWAY_SECRET: () => randomBase62(43),
  SANDBOX_SECRET: () => randomBase62(43),
  OTP_HASH_SECRET: () => randomBase62(43),
  RECORDS_CURSOR_SECRET: () => randomBase62(43),
  // Seals provider accounts' secret keys and webhook secrets (payments; links and billing open
  // them), and webhook endpoints' signing secrets (the webhooks service).
  SECRETS_KEY: () => randomBase62(43),
} as const satisfies Record<string, () => string>;

export type SecretName = keyof typeof generatedSecrets;

export const secretNames = Object.keys(generatedSecrets) as SecretName[];

export function isSecretName(name: string): name is SecretName {
  return Object.hasOwn(generatedSecrets, name);
}

/** The secrets each component reads: a component's own process keeps only these. */
export const componentSecrets: Record<ComponentName, readonly SecretName[]> = {
  gateway: ["ADMIN_API_KEY", "GATEWAY_SECRET"],
  payments: ["SANDBOX_SECRET", "SECRETS_KEY"],
  billing: ["SANDBOX_SECRET", "SECRETS_KEY"],
  links: ["SANDBOX_SECRET", "SECRETS_KEY"],
  records: ["RECORDS_CURSOR_SECRET"],
  otp: ["OTP_HASH_SECRET"],
  webhooks: ["SECRETS_KEY"],
};

/**
 * The key ring variable (kit's envKeyRing) that takes the place of a single-key secret: when it
 * is set, the single key is neither drawn nor taken from secrets.json, so a ring that has left
 * the kept key behind (docs/operations/data-and-backups.md, "Rotating keys") is not contradicted by it.
 */
const ringVariables: Partial<Record<SecretName, string>> = {
  GATEWAY_SECRET: "GATEWAY_SECRETS",
  SECRETS_KEY: "SECRETS_KEYS",
  OTP_HASH_SECRET: "OTP_HASH_SECRETS",
};

/** The names among `names` that `env` leaves unset (or blank, as the config readers see it), their key ring included. */
export function unsetSecrets(names: readonly SecretName[], env: Env): SecretName[] {
  return names.filter((name) => envOptional(env, name) === undefined && envOptional(env, ringVariables[name] ?? name) === undefined);
}

/** Values for this run only, for the names `env` leaves unset (no DATA_DIR: temporary stores, tests). */
export function drawSecrets(names: readonly SecretName[], env: Env): Env {
  return Object.fromEntries(unsetSecrets(names, env).map((name) => [name, generatedSecrets[name]()]));
}
