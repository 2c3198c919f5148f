import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What a resend needs and the record must not hold in clear: where to, and the code. */
export interface PendingMessage {
  recipient: string;
  code: string;
}

/**
 * While a delivery's outcome is not settled the record keeps the message sealed
 * (AES-256-GCM), so that a retry can resend the same message after a crash or an uncertain
 * send. The key is derived from OTP_HASH_SECRET, the otpId is authenticated with it (a sealed
 * message cannot be moved to another record), and the field is removed as soon as the
 * delivery is settled (sent or failed). At rest the code is otherwise only an HMAC.
 */
export function sealMessage(secret: string, otpId: string, message: PendingMessage): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(secret), iv);
  cipher.setAAD(Buffer.from(otpId));
  const data = Buffer.concat([cipher.update(JSON.stringify(message), "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** Throws when the secret or the otpId differ from those it was sealed with. */
export function openMessage(secret: string, otpId: string, sealed: string): PendingMessage {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("Unknown sealed message format");
  const decipher = createDecipheriv("aes-256-gcm", sealingKey(secret), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(otpId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const text = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  return JSON.parse(text) as PendingMessage;
}

const keys = new Map<string, Buffer>();

/** A key of its own for sealing, so the HMAC key is never used as a cipher key. */
function sealingKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "bayad-otp sealed message v1", 32));
    keys.set(secret, key);
  }
  return key;
}
