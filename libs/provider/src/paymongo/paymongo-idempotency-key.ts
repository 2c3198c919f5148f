import { createHash } from "node:crypto";

/**
 * The `Idempotency-Key` of one PayMongo create: derived, never random, so the same Bayad
 * operation sends the same key on every attempt (a transport retry after a lost answer, a
 * reconciliation run, a consumer's retry with its own key) and PayMongo replays the object it
 * made the first time instead of making a second one [O reference/idempotent-requests].
 *
 * - `bayadKey`: the Idempotency-Key of the Bayad request (its consumer's key);
 * - `resourceId`: the Bayad resource the create is for. Keys are the consumer's, so two projects
 *   sharing a PayMongo account could send the same one; and a Bayad retry that starts a new
 *   resource (a QR Ph intent whose first attempt was never answered) sends other metadata,
 *   which under the old key PayMongo would refuse as a mismatch;
 * - `operation` and `step`: the creates of one operation apart (a QR Ph payment makes an
 *   intent, a method and an attach under one Bayad key).
 *
 * A SHA-256 keeps it at 64 characters, under PayMongo's 255, and keeps the consumer's own key
 * from reaching PayMongo as it is.
 */
export function paymongoIdempotencyKey(bayadKey: string, resourceId: string, operation: string, step: string): string {
  return createHash("sha256").update(JSON.stringify(["bayad", bayadKey, resourceId, operation, step])).digest("hex");
}
