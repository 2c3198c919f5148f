import { timingSafeEqual } from "node:crypto";

/**
 * Whether two secrets (page tokens, MACs, code hashes) are equal, compared in constant time so
 * response timing does not reveal how much of a guess was right. An empty expected value never
 * matches.
 */
export function constantTimeEquals(expected: string | undefined, given: string): boolean {
  const a = Buffer.from(expected ?? "");
  const b = Buffer.from(given);
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}
