import { randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** An id shaped like PayMongo's: a resource prefix and 24 random base62 characters (e.g. `pi_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
