import { canonicalJson, IdempotencyLedger } from "@bayad/simulator-kit";
import { XenditSimulatorError } from "./api-error.js";

/** How long a key's first answer is replayed: Xendit's retention is UNCONF, so a day, as PayMongo's. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * The `idempotency-key` header's results, per account and endpoint. Xendit's replay and mismatch
 * behaviour is UNCONF; the simulator takes the conservative reading: the same key with the same
 * body answers the first answer again, and nothing new is made; another body, or the same key
 * while the first is still running, is 409 DUPLICATE_ERROR. A 5xx frees the key, since nothing
 * was made.
 */
export class IdempotencyStore {
  private readonly ledger: IdempotencyLedger<Answer>;

  constructor(ttlMs = IDEMPOTENCY_KEY_TTL_MS) {
    this.ledger = new IdempotencyLedger(ttlMs, {
      keep: (outcome) => outcome.ok && outcome.value.status < 500,
      mismatch: () => conflict("This idempotency-key was already used with another request body."),
      inProgress: () => conflict("A request with this idempotency-key is still being processed."),
    });
  }

  run(scope: string, body: Record<string, unknown>, work: () => Promise<Answer>): Promise<Answer> {
    // Key order never matters: the fingerprint is the body with its keys sorted.
    return this.ledger.run(scope, canonicalJson(body), work);
  }
}

function conflict(message: string): XenditSimulatorError {
  return new XenditSimulatorError(409, "DUPLICATE_ERROR", message);
}
