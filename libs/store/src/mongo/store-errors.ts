import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from "mongodb";
import { DuplicateKeyError, StoreUnavailableError } from "../port.js";

const DUPLICATE_KEY_CODE = 11000;

/**
 * Turns the server's duplicate-key error into the port's DuplicateKeyError, naming the index as
 * the server's message does ("E11000 duplicate key error collection: db.c index: name dup key:
 * …"), and connectivity failures outside a transaction into StoreUnavailableError. Inside a
 * transaction every other error passes through untouched, so the driver still sees the labels
 * (TransientTransactionError, …) it uses to retry the transaction.
 */
export function toStoreError(error: unknown, inTransaction: boolean): unknown {
  if (!inTransaction && isConnectivityError(error)) {
    return new StoreUnavailableError("MongoDB cannot be reached", { cause: error });
  }
  if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY_CODE) return error;
  const message = String(error.errorResponse?.errmsg ?? error.message);
  const index = / index: (\S+) dup key/.exec(message)?.[1] ?? "unknown";
  return new DuplicateKeyError(index, { cause: error });
}

function isConnectivityError(error: unknown): boolean {
  return (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError
  );
}
