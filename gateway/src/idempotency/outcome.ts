import { AppError } from "@bayad/kit";
import { errorEnvelope } from "../envelope.js";
import type { StoredResponse } from "./idempotency-records.js";

export type Outcome =
  | { known: true; response: StoredResponse }
  | { known: false; error: AppError }
  /** Turned away before anything happened (a rate limit): the key is not used up. */
  | { known: false; refused: true; error: AppError };

const unresolvedCodes = new Set(["PAYMENT_OUTCOME_UNKNOWN", "IDEMPOTENCY_OUTCOME_UNKNOWN", "IDEMPOTENCY_KEY_IN_PROGRESS"]);
/** Server-side answers that are still decided outcomes: the service knows what happened. */
const decidedServerErrors = new Set(["OTP_DELIVERY_FAILED"]);

/**
 * Runs a mutation and says whether its outcome is known. A response, or a client error the
 * service decided on (404, 409 …), is known and is replayed for the key from then on. A server
 * fault, a timeout or an unreachable service is not: the write may or may not have happened.
 */
export async function settleOutcome(run: () => Promise<StoredResponse>, correlationId: string): Promise<Outcome> {
  try {
    return { known: true, response: await run() };
  } catch (thrown) {
    const error = thrown instanceof AppError ? thrown : new AppError("INTERNAL_ERROR", undefined, { cause: thrown });
    if (error.code === "RATE_LIMITED") return { known: false, refused: true, error };
    const decided = (error.httpStatus < 500 && !unresolvedCodes.has(error.code)) || decidedServerErrors.has(error.code);
    if (decided) {
      return { known: true, response: { status: error.httpStatus, body: errorEnvelope(error, correlationId) } };
    }
    return { known: false, error };
  }
}
