import { timingSafeEqual } from "node:crypto";

/**
 * Whether a hosted-page request carries the page token its resource was given. Compared in
 * constant time, so response timing does not reveal how much of a guessed token was right.
 */
export function pageTokenMatches(expected: string | undefined, given: string): boolean {
  const a = Buffer.from(expected ?? "");
  const b = Buffer.from(given);
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}
