import { handleWhen, retry } from "cockatiel";
import { AppError, jitteredBackoff, lostRaceBackoff } from "@bayad/kit";

/** How many times a versioned write is tried before it gives up on a resource that keeps changing. */
export const VERSION_CONFLICT_ATTEMPTS = 10;

const backoff = jitteredBackoff(lostRaceBackoff);

/**
 * A versioned write lost to another writer, having written nothing (see writeChange). Thrown,
 * not returned, so that it also aborts a transaction of several writes. Expected under
 * contention, so it captures no stack trace (V8 spends microseconds on one).
 */
export class VersionConflict extends Error {
  constructor(resourceId: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${resourceId} changed while it was being written`);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = "VersionConflict";
  }
}

/**
 * Runs `work` (a read, a decision and a versioned write, usually one store transaction) again
 * while it loses races, at most VERSION_CONFLICT_ATTEMPTS times, pausing between tries: another writer
 * just landed, so a short, growing, jittered wait (at most 1, 2, 4 … 100 ms; kit's backoff) lets
 * it and any others finish instead of racing them again in step. A resource that changed under
 * every try is 409 CONCURRENT_MODIFICATION: losing that often in a row is a hot spot or a fault,
 * and failing clearly beats spinning. Nothing of a lost try was written, so the request's key is
 * not used up (the code's outcome is `refused`).
 *
 * `work` must read what it decides from afresh on each try (`attempt` counts from 0).
 * `isConflict` names further errors that mean the same as VersionConflict.
 */
export async function retryVersionConflicts<R>(
  work: (attempt: number) => Promise<R>,
  isConflict: (error: unknown) => boolean = () => false,
): Promise<R> {
  const conflict = (error: unknown) => error instanceof VersionConflict || isConflict(error);
  try {
    return await retry(handleWhen(conflict), { maxAttempts: VERSION_CONFLICT_ATTEMPTS - 1, backoff }).execute(({ attempt }) => work(attempt));
  } catch (error) {
    if (!conflict(error)) throw error;
    throw new AppError("CONCURRENT_MODIFICATION", undefined, { cause: error });
  }
}
