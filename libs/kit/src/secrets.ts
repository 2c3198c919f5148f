import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, type KeyObject } from "node:crypto";
import { LEGACY_KEY_ID, sealingKeyOf, singleKeyRing, type KeyRing } from "./key-ring.js";

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
  return createHmac("sha256", digestKey(secret)).update(`${purpose}\u0000${value}`).digest("base64url");
}

const digestKeys = new Map<string, KeyObject>();

/**
 * The secret as a KeyObject, made once per secret: createHmac with a string key converts it to
 * bytes on every call, and the gateway digests on every keyed request (record id, fingerprint).
 * Same key bytes (UTF-8), so the same digests.
 */
function digestKey(secret: string): KeyObject {
  let key = digestKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    digestKeys.set(secret, key);
  }
  return key;
}

/** A key ring, or one key standing for the ring of one key with the legacy id. */
export type SealingKeys = KeyRing | string;

const ringOf = (keys: SealingKeys): KeyRing => (typeof keys === "string" ? singleKeyRing(keys) : keys);

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals `text` (AES-256-GCM, fresh 96-bit IV) with the ring's newest key, as
 * `v2.<key id>.<iv>.<tag>.<data>`. The cipher key is derived from the ring key for `purpose`
 * (HKDF), so a secret used for HMACs is never itself a cipher key and the sealed texts of one use
 * cannot be opened as another's. `context` is authenticated, not encrypted: a sealed text moved
 * to another record (another id as context) no longer opens.
 */
export function sealText(keys: SealingKeys, purpose: string, context: string, text: string): string {
  const { id, key } = sealingKeyOf(ringOf(keys));
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(key, purpose), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return ["v2", id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

/**
 * Opens what sealText sealed, with the ring's key of the id it names; a `v1.<iv>.<tag>.<data>`
 * text (sealed before texts named their key) with the key whose id is "legacy". Throws when the
 * ring lacks the key, the purpose or context differ, the IV is not 12 bytes or the tag not 16,
 * or it was altered.
 */
export function openSealed(keys: SealingKeys, purpose: string, context: string, sealed: string): string {
  const { keyId, iv, tag, data } = partsOf(sealed);
  const ringKey = ringOf(keys).keys.find((entry) => entry.id === keyId);
  if (!ringKey) throw new Error(`sealed with key "${keyId}", which the key ring does not hold`);
  if (iv.length !== IV_BYTES) throw new Error(`sealed text has a ${iv.length}-byte IV, not ${IV_BYTES}`);
  if (tag.length !== TAG_BYTES) throw new Error(`sealed text has a ${tag.length}-byte tag, not ${TAG_BYTES}`);
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(ringKey.key, purpose), iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}

/** The id of the key a sealed text names ("legacy" for a v1 text); throws when it is no sealed text. */
export function sealedKeyId(sealed: string): string {
  return partsOf(sealed).keyId;
}

/**
 * `sealed` sealed again under the ring's newest key, or undefined when it already is. Throws,
 * like openSealed, when the ring cannot open it.
 */
export function resealText(keys: SealingKeys, purpose: string, context: string, sealed: string): string | undefined {
  const ring = ringOf(keys);
  if (sealed.startsWith("v2.") && sealedKeyId(sealed) === sealingKeyOf(ring).id) return undefined;
  return sealText(ring, purpose, context, openSealed(ring, purpose, context, sealed));
}

function partsOf(sealed: string): { keyId: string; iv: Buffer; tag: Buffer; data: Buffer } {
  const parts = sealed.split(".");
  const [version] = parts;
  if (version === "v2" && parts.length === 5) {
    const [, keyId, iv, tag, data] = parts as [string, string, string, string, string];
    return { keyId, iv: Buffer.from(iv, "base64url"), tag: Buffer.from(tag, "base64url"), data: Buffer.from(data, "base64url") };
  }
  if (version === "v1" && parts.length === 4) {
    const [, iv, tag, data] = parts as [string, string, string, string];
    return { keyId: LEGACY_KEY_ID, iv: Buffer.from(iv, "base64url"), tag: Buffer.from(tag, "base64url"), data: Buffer.from(data, "base64url") };
  }
  throw new Error("unknown sealed text format");
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
