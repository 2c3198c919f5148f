import { AppError, appErrorOfStoreFault, errorOutcome } from "@bayad/kit";
import type { StoredResponse } from "./idempotency-records.js";
import type { ErrorBody } from "./operation-runner.js";

export type Outcome =
  | { known: true; response: StoredResponse }
  | { known: false; error: AppError }
  /** Turned away before anything happened (a rate limit): the key is not used up. */
  | { known: false; refused: true; error: AppError }
  /** The request itself is invalid: nothing happened, on this attempt or an earlier one. */
  | { known: false; invalid: true; error: AppError };

/**
 * Runs a mutation and says whether its outcome is known. A response, or an error the service
 * decided on (404, 409 …), is known and is replayed for the key from then on. A server fault, a
 * timeout or an unreachable service is not: the write may or may not have happened. Which error
 * is which is the catalogue's `outcome` (see errorOutcome in @bayad/kit). A decided error is
 * kept as `errorBody` words it (the gateway's envelope), with its catalogue status.
 */
export async function settleOutcome(
  run: () => Promise<StoredResponse>,
  errorBody: ErrorBody,
  correlationId: string,
): Promise<Outcome> {
  try {
    return { known: true, response: await run() };
  } catch (thrown) {
    const error = thrown instanceof AppError ? thrown : (appErrorOfStoreFault(thrown) ?? new AppError("INTERNAL_ERROR", undefined, { cause: thrown }));
    switch (errorOutcome(error.code)) {
      case "decided":
        return { known: true, response: { status: error.httpStatus, body: errorBody(error, correlationId) } };
      case "refused":
        return { known: false, refused: true, error };
      case "invalid":
        return { known: false, invalid: true, error };
      case "unresolved":
        return { known: false, error };
    }
  }
}
