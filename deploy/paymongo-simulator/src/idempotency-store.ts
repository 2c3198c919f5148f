import { createHash } from "node:crypto";
import { canonicalJson, IdempotencyLedger } from "@bayad/simulator-kit";
import { PaymongoSimulatorError } from "./api-error.js";

/** PayMongo keeps a key for 24 h; after that the key is new again [O reference/idempotent-requests]. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

/** A request's fingerprint: method, path and attributes with their keys sorted, so key order never matters. */
export function requestFingerprint(method: string, path: string, attributes: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalJson([method, path, attributes])).digest("hex");
}

/**
 * A failure that PayMongo's validation would catch (every error a `parameter_…` one): such a
 * request is not stored, so the same key may be sent again, corrected [O].
 */
const failedValidation = (error: PaymongoSimulatorError) => error.errors.every((entry) => entry.code.startsWith("parameter_"));

/**
 * The `Idempotency-Key` of POST requests, per account [O reference/idempotent-requests]: the
 * first result, success or failure, is stored and replayed for 24 h. The status and code of a
 * key reused with other parameters are UNCONF: the simulator answers 400
 * `idempotency_key_mismatch`, the shape of PayMongo's other 400s. A second request while the
 * first is running gets 409 `idempotency_in_progress` ([O] for money movement, assumed here for
 * payments). Nothing is stored for a request that fails validation, nor for a simulator fault.
 */
export class IdempotencyStore {
  private readonly ledger: IdempotencyLedger<unknown>;

  constructor(ttlMs = IDEMPOTENCY_KEY_TTL_MS) {
    this.ledger = new IdempotencyLedger(ttlMs, {
      keep: (outcome) => outcome.ok || (outcome.error instanceof PaymongoSimulatorError && !failedValidation(outcome.error)),
      mismatch: () => new PaymongoSimulatorError(400, [{ code: "idempotency_key_mismatch", detail: "The Idempotency-Key was used before with different parameters." }]),
      inProgress: () => new PaymongoSimulatorError(409, [{ code: "idempotency_in_progress", detail: "A request with this Idempotency-Key is still being processed." }]),
    });
  }

  /** The key of a request's `Idempotency-Key` header, checked; undefined when it has none. */
  static keyOf(header: string | string[] | undefined): string | undefined {
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return undefined;
    if (key.trim() === "" || key.length > MAX_KEY_LENGTH) {
      // PayMongo's answer to a malformed key is undocumented (UNCONF): a 400 naming the header.
      throw new PaymongoSimulatorError(400, [
        { code: "parameter_invalid", detail: `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`, source: { pointer: "headers.Idempotency-Key", attribute: "Idempotency-Key" } },
      ]);
    }
    return key;
  }

  /** Runs `handle` once per `owner` and `key`; repeats replay its outcome. */
  run(owner: string, key: string, fingerprint: string, handle: () => Promise<unknown>): Promise<unknown> {
    return this.ledger.run(`${owner}:${key}`, fingerprint, handle);
  }
}
