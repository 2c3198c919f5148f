import { StoreNotWritableError, StoreUnavailableError } from "@bayad/store";
import { AppError } from "./app-error.js";

/**
 * What a store failure answers: a store whose disk refuses writes is 503 STORE_UNAVAILABLE (reads
 * go on, it recovers by itself); a store that cannot be reached at all is 503 SERVICE_UNAVAILABLE.
 * Undefined for anything else. Both are "unresolved" outcomes: a commit whose flush failed is
 * stored though never acknowledged, so an Idempotency-Key is reconciled, not replayed.
 */
export function appErrorOfStoreFault(thrown: unknown): AppError | undefined {
  if (thrown instanceof StoreNotWritableError) return new AppError("STORE_UNAVAILABLE", undefined, { cause: thrown });
  if (thrown instanceof StoreUnavailableError) return new AppError("SERVICE_UNAVAILABLE", undefined, { cause: thrown });
  return undefined;
}
