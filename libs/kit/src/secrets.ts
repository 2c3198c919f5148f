import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * What a process keeps of things it must recognise again or read back, but never hold in clear:
 * keyed digests (HMAC-SHA256) and sealed texts (AES-256-GCM). Both are keyed by a server secret
 * from the environment (GATEWAY_SECRET, OTP_HASH_SECRET, …) that replicas share; a stolen copy
 * of the store without it reveals neither what was digested nor what was sealed.
 */

/**
 * A keyed digest of `value` for one `purpose`: the purpose keeps the digests of different uses
 * apart (the same phone number digested for a rate limit and for a fingerprint differ), and the
 * key makes a guess at a low-entropy value (a phone number, a 6-digit code) useless without the
 * secret, where a plain SHA-256 falls to enumeration.
 */
export function keyedDigest(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}\u0000${value}`).digest("base64url");
}

const SEALED_VERSION = "v1";

/**
 * Seals `text` (AES-256-GCM, fresh 96-bit IV). The key is derived from `secret` for `purpose`
 * (HKDF), so a secret used for HMACs is never itself a cipher key and the sealed texts of one use
 * cannot be opened as another's. `context` is authenticated, not encrypted: a sealed text moved
 * to another record (another id as context) no longer opens.
 */
export function sealText(secret: string, purpose: string, context: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(secret, purpose), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [SEALED_VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

/** Opens what sealText sealed; throws when the secret, purpose or context differ or it was altered. */
export function openSealed(secret: string, purpose: string, context: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== SEALED_VERSION || !iv || !tag || data === undefined) throw new Error("unknown sealed text format");
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(secret, purpose), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

const sealingKeys = new Map<string, Buffer>();

function sealingKey(secret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = sealingKeys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `bayad sealed text v1: ${purpose}`, 32));
    sealingKeys.set(id, key);
  }
  return key;
}
