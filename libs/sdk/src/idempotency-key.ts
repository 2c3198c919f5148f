import { randomUUID } from "node:crypto";

/**
 * A fresh Idempotency-Key: `bayad-sdk-` and a random UUID, 46 characters (the API takes 16 to
 * 255). One is made per mutating call and sent on each of its retries, so a retry the gateway
 * already answered replays that answer instead of doing the thing twice.
 */
export function newIdempotencyKey(): string {
  return `bayad-sdk-${randomUUID()}`;
}
