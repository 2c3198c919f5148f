import { createHash, timingSafeEqual } from "node:crypto";
import { bearerTokenOf, invalidCredentials } from "./credential-verifier.js";

/**
 * The operator's admin key guards the admin API (projects, API keys, service tokens). It is a
 * single configured secret, so the check is a comparison, made in constant time: comparing
 * SHA-256 digests gives both sides the same length, and timingSafeEqual does not stop at the
 * first differing byte, so response timing reveals nothing about how much of a guess was right.
 */
export function createAdminKeyCheck(adminKey: string): (authorizationHeader: string | undefined) => void {
  if (adminKey.length === 0) throw new TypeError("the admin key must not be empty");
  const expected = digest(adminKey);

  return function checkAdminKey(authorizationHeader) {
    const presented = digest(bearerTokenOf(authorizationHeader));
    if (!timingSafeEqual(presented, expected)) throw invalidCredentials();
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
