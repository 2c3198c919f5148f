import { randomFillSync } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The prefixes of every id the platform issues. */
export type IdPrefix =
  | "chk" | "pi" | "cus" | "ref" | "sub" | "inv" | "plan" | "link" | "otp" | "prj" | "key" | "evt" | "pa" | "we" | "whd";

/**
 * Cryptographically random base62 text. Rejection sampling keeps every character equally likely
 * (a plain modulo would favour the first characters of the alphabet).
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out;
}

/**
 * Random bytes drawn from a 4 KiB buffer the CSPRNG refills when it is used up (as randomUUID
 * does): one call into OpenSSL per ~150 ids instead of one per id. Each byte is handed out once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function nextRandomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** A new id: prefix, underscore, 24 random base62 characters (about 143 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}
