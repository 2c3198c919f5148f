import { randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The prefixes of every id the platform issues. */
export type IdPrefix =
  | "chk" | "pi" | "cus" | "ref" | "sub" | "inv" | "plan" | "link" | "otp" | "prj" | "key" | "evt";

/**
 * Cryptographically random base62 text. Rejection sampling keeps every character equally likely
 * (a plain modulo would favour the first characters of the alphabet).
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += alphabet[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new id: prefix, underscore, 24 random base62 characters (about 143 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}
