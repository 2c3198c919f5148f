import { setTimeout as sleep } from "node:timers/promises";
import { MongoError, type ClientSession, type TransactionOptions } from "mongodb";
import { StoreNotWritableError, StoreUnavailableError } from "../port.js";
import { describeUnavailability, toStoreError } from "./store-errors.js";

const MAX_TIME_MS_EXPIRED = 50;

/** What the runner does after an error: run the whole transaction again, commit again, or give up. */
export type TransactionStep = "retry-transaction" | "retry-commit" | "give-up";

/**
 * The transactions specification's rules, as `withTransaction` applies them: a
 * TransientTransactionError (a write conflict, a failover before commit) means nothing was
 * committed and the whole transaction may run again; an UnknownTransactionCommitResult on commit
 * means the commit may or may not have happened and only the commit is retried (it is
 * idempotent), except when the commit ran out of its own time limit (MaxTimeMSExpired), which
 * retrying would only repeat. Anything else, including the caller's own errors, gives up.
 */
export function nextTransactionStep(error: unknown, phase: "work" | "commit"): TransactionStep {
  if (!(error instanceof MongoError)) return "give-up";
  if (phase === "commit" && error.hasErrorLabel("UnknownTransactionCommitResult") && error.code !== MAX_TIME_MS_EXPIRED) return "retry-commit";
  if (error.hasErrorLabel("TransientTransactionError")) return "retry-transaction";
  return "give-up";
}

const BACKOFF_INITIAL_MS = 5;
const BACKOFF_GROWTH = 1.5;
const BACKOFF_MAX_MS = 250;

/**
 * The pause before retry number `attempt` (1 for the first retry): full jitter (`random` in
 * [0, 1)) on a bound growing from 5 ms by half each time up to 250 ms, so that transactions
 * that conflicted with each other do not collide again in step.
 */
export function retryBackoffMs(attempt: number, random: number): number {
  return random * Math.min(BACKOFF_INITIAL_MS * BACKOFF_GROWTH ** attempt, BACKOFF_MAX_MS);
}

/** A point in time (performance.now()) after which a transaction starts nothing more. */
export interface TransactionDeadline {
  /** The whole transaction's allowance, for messages. */
  readonly timeoutMs: number;
  readonly at: number;
}

export function transactionDeadline(timeoutMs: number): TransactionDeadline {
  return { timeoutMs, at: performance.now() + timeoutMs };
}

/**
 * The error a transaction ends with when its time is up: 503, with the last error as the cause;
 * StoreUnavailableError when that error says MongoDB could not be reached at all, else
 * StoreNotWritableError (reached, but it could not take the transaction in time).
 */
export function transactionTimedOut(deadline: TransactionDeadline, lastError: unknown): StoreUnavailableError {
  const reason = lastError === undefined ? "deadline reached" : (describeUnavailability(lastError) ?? (lastError instanceof Error ? lastError.name : "no answer"));
  const message = `MongoDB transaction did not complete within ${deadline.timeoutMs} ms (${reason})`;
  const mapped = lastError === undefined ? undefined : toStoreError(lastError, false);
  const unreachable = mapped instanceof StoreUnavailableError && !(mapped instanceof StoreNotWritableError);
  return unreachable ? new StoreUnavailableError(message, { cause: lastError }) : new StoreNotWritableError(message, { cause: lastError });
}

/**
 * Runs `work` in a transaction on `session` and commits it, retrying as `nextTransactionStep`
 * says with jittered pauses, but never starting an attempt, a pause or a commit past `deadline`:
 * the driver's `withTransaction` retries for a fixed 120 s (driver 7 has no working timeout for
 * it), twelve times the gateway's whole request deadline. `work` may therefore run several
 * times, as the port's `transaction` warns. A failed attempt is aborted. What finally escapes
 * is mapped to the port's errors (a retryable error at the deadline becomes
 * StoreUnavailableError, with it as the cause); the caller's own errors pass through as thrown.
 */
export async function runBoundedTransaction<R>(
  session: ClientSession,
  work: () => Promise<R>,
  deadline: TransactionDeadline,
  options: TransactionOptions,
): Promise<R> {
  let lastError: unknown;
  const pauseOrGiveUp = async (attempt: number): Promise<void> => {
    const pause = retryBackoffMs(attempt, Math.random());
    if (performance.now() + pause >= deadline.at) throw transactionTimedOut(deadline, lastError);
    await sleep(pause);
  };
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) await pauseOrGiveUp(attempt);
    session.startTransaction(options);
    let result: R;
    try {
      result = await work();
      if (performance.now() >= deadline.at) throw transactionTimedOut(deadline, lastError);
    } catch (error) {
      // The abort's own failures are not worth the caller's time: the server drops an abandoned
      // transaction by itself (transactionLifetimeLimitSeconds), and so does ending the session.
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      if (nextTransactionStep(error, "work") === "give-up") throw toStoreError(error, false);
      lastError = error;
      continue;
    }
    for (let commitAttempt = 0; ; commitAttempt++) {
      if (commitAttempt > 0) await pauseOrGiveUp(commitAttempt);
      try {
        await session.commitTransaction();
        return result;
      } catch (error) {
        lastError = error;
        const step = nextTransactionStep(error, "commit");
        if (step === "give-up") throw toStoreError(error, false);
        if (step === "retry-transaction") break;
      }
    }
  }
}
