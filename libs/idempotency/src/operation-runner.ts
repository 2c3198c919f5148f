import type { AppError, CallerContext } from "@bayad/kit";
import type { StoredResponse } from "./idempotency-records.js";

/**
 * Runs one operation for a caller and answers with the response to keep for its key. The
 * gateway's runner takes its validated request; the reconciler runs a stored request again
 * through the same runner, with the key and the time it was recorded in `caller`.
 */
export type OperationRunner<Input> = (operationId: string, input: Input, caller: CallerContext) => Promise<StoredResponse>;

/** The body an error the service decided on is answered with, and replayed with: the gateway's envelope. */
export type ErrorBody = (error: AppError, correlationId: string) => unknown;
