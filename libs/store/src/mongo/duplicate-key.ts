import { MongoServerError } from "mongodb";
import { DuplicateKeyError } from "../port.js";

const DUPLICATE_KEY_CODE = 11000;

/**
 * Turns the server's duplicate-key error into the port's DuplicateKeyError, naming the index as
 * the server's message does ("E11000 duplicate key error collection: db.c index: name dup key:
 * …"). Every other error passes through untouched, so the driver still sees the labels
 * (TransientTransactionError, …) it uses to retry transactions.
 */
export function toStoreError(error: unknown): unknown {
  if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY_CODE) return error;
  const message = String(error.errorResponse?.errmsg ?? error.message);
  const index = / index: (\S+) dup key/.exec(message)?.[1] ?? "unknown";
  return new DuplicateKeyError(index, { cause: error });
}
