import { MongoConfigError } from "./mongo-config-error.js";

/**
 * How long the MongoDB store waits for each thing, in milliseconds. The driver's defaults wait
 * 30 s to find a server, for ever for a majority to acknowledge a write, and up to 120 s in
 * `withTransaction`; the gateway gives a whole request 10 s (RPC_TIMEOUT_MS), so during an outage
 * requests would end in outcome-unknown reconciliation while the services kept waiting. With
 * these bounds a store call fails as StoreUnavailableError (503) well inside the gateway's
 * deadline, and the client can retry with the same Idempotency-Key. (`timeoutMS`, the driver's
 * whole-operation timeout, is a documented no-op in driver 7, hence one bound per stage.)
 */
export interface MongoTimeouts {
  /** How long an operation waits for a suitable server (a writable primary for writes). */
  serverSelectionTimeoutMs: number;
  /** How long opening a TCP (and TLS) connection may take. */
  connectTimeoutMs: number;
  /**
   * A socket silent this long is closed: the backstop for a hung network. Above
   * `operationTimeoutMs` and `maxCommitTimeMs`, so the server's own time limit answers first.
   */
  socketTimeoutMs: number;
  /**
   * The server-side limit (`maxTimeMS`) on reads and commands outside transactions, and the
   * majority write concern's `wtimeoutMS`: a write that a majority has not acknowledged by then
   * fails (it may still be applied: a 503 is an unresolved outcome).
   */
  operationTimeoutMs: number;
  /** The server-side limit on one `commitTransaction`. */
  maxCommitTimeMs: number;
  /**
   * The deadline of a whole transaction, retries included: no attempt, operation or commit starts
   * after it, and the last error becomes StoreUnavailableError.
   */
  transactionTimeoutMs: number;
}

/**
 * Defaults chosen so that the longest a store call can wait (`longestWaitMs`: 7 s) stays well
 * below the gateway's 10 s request deadline, leaving it time to answer 503 itself. A healthy
 * replica set answers in milliseconds; an election takes seconds (10 s electionTimeoutMillis by
 * default), during which failing fast with 503 is better than holding the request.
 */
export const defaultMongoTimeouts: Readonly<MongoTimeouts> = Object.freeze({
  serverSelectionTimeoutMs: 1_000,
  connectTimeoutMs: 1_000,
  socketTimeoutMs: 1_500,
  operationTimeoutMs: 1_000,
  maxCommitTimeMs: 1_000,
  transactionTimeoutMs: 2_000,
});

/** Beyond this a setting is surely a mistake (minutes where milliseconds were meant). */
const MAX_TIMEOUT_MS = 600_000;

/**
 * The longest one store call can wait, whatever MongoDB does: a transaction's deadline, then the
 * operation or commit started just before it, which the driver retries once (finding a server
 * again) when it fails with a retryable error, each try bounded by server selection plus a silent
 * socket.
 */
export function longestWaitMs(timeouts: MongoTimeouts): number {
  return timeouts.transactionTimeoutMs + 2 * (timeouts.serverSelectionTimeoutMs + timeouts.socketTimeoutMs);
}

/**
 * The defaults with `overrides` applied, checked: every value a whole number of milliseconds
 * from 1 to 600 000, the socket timeout above the server-side limits (else a slow answer closes
 * the connection instead of failing cleanly), and the transaction's deadline at least as long as
 * one operation and one commit. Throws a MongoConfigError naming the first setting at fault.
 */
export function resolveMongoTimeouts(overrides: Partial<MongoTimeouts> = {}): MongoTimeouts {
  const timeouts: MongoTimeouts = { ...defaultMongoTimeouts };
  for (const [setting, value] of Object.entries(overrides) as [keyof MongoTimeouts, number | undefined][]) {
    if (value !== undefined) timeouts[setting] = value;
  }
  for (const [setting, value] of Object.entries(timeouts)) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
      throw new MongoConfigError(setting, `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${value}`);
    }
  }
  const above = (setting: keyof MongoTimeouts, other: keyof MongoTimeouts, orEqual: boolean): void => {
    const ok = orEqual ? timeouts[setting] >= timeouts[other] : timeouts[setting] > timeouts[other];
    if (!ok) {
      const relation = orEqual ? "at least" : "greater than";
      throw new MongoConfigError(setting, `must be ${relation} ${other} (${timeouts[other]} ms), got ${timeouts[setting]}`);
    }
  };
  above("socketTimeoutMs", "operationTimeoutMs", false);
  above("socketTimeoutMs", "maxCommitTimeMs", false);
  above("transactionTimeoutMs", "operationTimeoutMs", true);
  above("transactionTimeoutMs", "maxCommitTimeMs", true);
  return timeouts;
}
