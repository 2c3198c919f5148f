import {
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from "mongodb";
import { DuplicateKeyError, StoreNotWritableError, StoreUnavailableError } from "../port.js";

const DUPLICATE_KEY = 11000;
const OUT_OF_DISK_SPACE = 14031;

/**
 * The server's codes for a replica set that cannot serve right now (no writable primary, a member
 * stepping down or shutting down, a network fault between members, a time limit or a write
 * concern not met): every one passes once the set has a healthy primary again.
 */
const UNAVAILABLE_CODES: ReadonlyMap<number, string> = new Map([
  [6, "HostUnreachable"],
  [7, "HostNotFound"],
  [50, "MaxTimeMSExpired"],
  [64, "WriteConcernTimeout"],
  [89, "NetworkTimeout"],
  [91, "ShutdownInProgress"],
  [100, "UnsatisfiableWriteConcern"],
  [133, "FailedToSatisfyReadPreference"],
  [134, "ReadConcernMajorityNotAvailableYet"],
  [189, "PrimarySteppedDown"],
  [262, "ExceededTimeLimit"],
  [9001, "SocketException"],
  [10058, "LegacyNotPrimary"],
  [10107, "NotWritablePrimary"],
  [11600, "InterruptedAtShutdown"],
  [11602, "InterruptedDueToReplStateChange"],
  [13435, "NotPrimaryNoSecondaryOk"],
  [13436, "NotPrimaryOrSecondary"],
]);

/** Labels the driver or server put on an error that a retry after a while can cure. */
const UNAVAILABLE_LABELS = [
  "RetryableWriteError",
  "TransientTransactionError",
  "UnknownTransactionCommitResult",
  "ResetPool",
  "PoolRequestedRetry",
  "RetryableError",
  "SystemOverloadedError",
] as const;

/** The driver's own errors for a deployment it cannot reach, or a client no longer usable. */
const UNREACHABLE_CLASSES = [
  MongoNetworkError, // with MongoNetworkTimeoutError
  MongoServerSelectionError,
  MongoNotConnectedError,
  MongoTopologyClosedError,
  MongoClientClosedError,
] as const;

/** The driver's own errors for a deployment reached that could not take the operation in time. */
const UNAVAILABLE_CLASSES = [...UNREACHABLE_CLASSES, MongoOperationTimeoutError, MongoWriteConcernError] as const;

/**
 * Turns a driver error into the port's: a duplicate key into DuplicateKeyError (naming the index
 * as the server's message does: "E11000 duplicate key error collection: db.c index: name dup key:
 * …"), and anything that says the deployment cannot serve right now (by class, label or code:
 * `describeUnavailability`) into one of the port's two unavailable errors, which services answer
 * with 503 rather than 500 (kit's appErrorOfStoreFault):
 * - a deployment the driver cannot reach at all (network, server selection, closed client):
 *   StoreUnavailableError, 503 SERVICE_UNAVAILABLE, as for an embedded store that is closed;
 * - a deployment reached that cannot take writes now (no writable primary, a stepdown, a write
 *   concern or time limit not met, a full disk, a transient or retryable label):
 *   StoreNotWritableError, 503 STORE_UNAVAILABLE ("retry later with the same Idempotency-Key").
 * The driver's error is kept as the cause.
 *
 * Inside a transaction only the duplicate key is mapped (callers catch it there): every other
 * error passes through untouched so the transaction runner still sees its labels, and maps what
 * finally escapes it.
 */
export function toStoreError(error: unknown, inTransaction: boolean): unknown {
  if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
    const message = String(error.errorResponse.errmsg ?? error.message);
    const index = / index: (\S+) dup key/.exec(message)?.[1] ?? "unknown";
    return new DuplicateKeyError(index, { cause: error });
  }
  if (inTransaction || error instanceof StoreUnavailableError) return error;
  if (error instanceof MongoServerError && error.code === OUT_OF_DISK_SPACE) {
    return new StoreNotWritableError("MongoDB cannot write: its disk is full (OutOfDiskSpace)", { cause: error });
  }
  const unavailability = describeUnavailability(error);
  if (unavailability === undefined) return error;
  if (UNREACHABLE_CLASSES.some((kind) => error instanceof kind)) {
    return new StoreUnavailableError(`MongoDB cannot be reached (${unavailability})`, { cause: error });
  }
  return new StoreNotWritableError(`MongoDB cannot take writes right now (${unavailability})`, { cause: error });
}

/**
 * Why `error` means the deployment cannot serve right now (a class, code or label name, for the
 * message), or undefined when it is some other failure. Names only: never the driver's message,
 * which may carry host names or parts of the URI.
 */
export function describeUnavailability(error: unknown): string | undefined {
  if (!(error instanceof MongoError)) return undefined;
  const code = codeOf(error);
  const codeName = code === undefined ? undefined : UNAVAILABLE_CODES.get(code);
  if (codeName !== undefined) return codeName;
  const unavailableClass = UNAVAILABLE_CLASSES.find((kind) => error instanceof kind);
  if (unavailableClass !== undefined) return error.name;
  return UNAVAILABLE_LABELS.find((label) => error.hasErrorLabel(label));
}

/** The server's code; a write concern error carries it in `writeConcernError` too. */
function codeOf(error: MongoError): number | undefined {
  if (typeof error.code === "number") return error.code;
  if (error instanceof MongoWriteConcernError) {
    const details: unknown = error.result.writeConcernError;
    if (typeof details === "object" && details !== null && "code" in details && typeof details.code === "number") return details.code;
  }
  return undefined;
}
