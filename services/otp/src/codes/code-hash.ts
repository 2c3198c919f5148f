import { createHash, createHmac, randomInt } from "node:crypto";
import { constantTimeEquals } from "@bayad/kit";

/**
 * A code of `digits` decimal digits, every value equally likely: crypto.randomInt draws
 * uniformly (it rejects the biased tail itself), and padding keeps leading zeros. 10^10, the
 * largest range we use, is far below randomInt's limit of 2^48.
 */
export function generateCode(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, "0");
}

/**
 * How a code is stored: HMAC-SHA256 keyed with the server secret (OTP_HASH_SECRET) over
 * `otpId:code`. A plain hash of a 6-digit code would fall to a million guesses; the key makes
 * the stored value useless without the secret, and the otpId makes equal codes of different
 * OTPs hash differently.
 */
export function hashCode(secret: string, otpId: string, code: string): string {
  return createHmac("sha256", secret).update(`${otpId}:${code}`).digest("base64url");
}

/** Compares in constant time, so the time taken tells nothing about how close a guess was. */
export function codeMatches(secret: string, otpId: string, submitted: string, storedHash: string): boolean {
  return constantTimeEquals(storedHash, hashCode(secret, otpId, submitted));
}

/**
 * The field name a verify request's Idempotency-Key is recorded under on its OTP: hex (a valid
 * document field name) and fixed length whatever the key's length.
 */
export function idempotencyKeyDigest(idempotencyKey: string): string {
  return createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 32);
}
