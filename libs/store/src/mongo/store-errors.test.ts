import {
  MongoClient,
  MongoClientClosedError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from "mongodb";
import { describe, expect, it } from "vitest";
import { DuplicateKeyError, StoreNotWritableError, StoreUnavailableError } from "../port.js";
import { toStoreError } from "./store-errors.js";

// Every error below is the driver's own class, built as the driver builds it from a server reply.
const serverError = (code: number, codeName: string, errorLabels: string[] = []) =>
  new MongoServerError({ ok: 0, code, codeName, errmsg: `${codeName} from db-0.internal:27017`, errorLabels });

/** Expects `error` to become StoreNotWritableError (503 STORE_UNAVAILABLE) naming `reason`, with the driver's error as cause. */
function expectUnavailable(error: unknown, reason: string): void {
  const mapped = toStoreError(error, false);
  expect(mapped).toBeInstanceOf(StoreNotWritableError);
  expect((mapped as Error).message).toBe(`MongoDB cannot take writes right now (${reason})`);
  expect((mapped as Error).cause).toBe(error);
}

/** Expects `error` to become StoreUnavailableError, not the not-writable kind (503 SERVICE_UNAVAILABLE), naming `reason`. */
function expectUnreachable(error: unknown, reason: string): void {
  const mapped = toStoreError(error, false);
  expect(mapped).toBeInstanceOf(StoreUnavailableError);
  expect(mapped).not.toBeInstanceOf(StoreNotWritableError);
  expect((mapped as Error).message).toBe(`MongoDB cannot be reached (${reason})`);
  expect((mapped as Error).cause).toBe(error);
}

describe("toStoreError", () => {
  it.each([
    [10107, "NotWritablePrimary"],
    [13435, "NotPrimaryNoSecondaryOk"],
    [13436, "NotPrimaryOrSecondary"],
    [189, "PrimarySteppedDown"],
    [11600, "InterruptedAtShutdown"],
    [11602, "InterruptedDueToReplStateChange"],
    [91, "ShutdownInProgress"],
    [6, "HostUnreachable"],
    [7, "HostNotFound"],
    [89, "NetworkTimeout"],
    [9001, "SocketException"],
    [262, "ExceededTimeLimit"],
    [50, "MaxTimeMSExpired"],
    [64, "WriteConcernTimeout"],
    [100, "UnsatisfiableWriteConcern"],
  ])("turns the replica-state code %i (%s) into StoreNotWritableError", (code, codeName) => {
    expectUnavailable(serverError(code, codeName), codeName);
  });

  it.each(["RetryableWriteError", "TransientTransactionError", "ResetPool", "SystemOverloadedError"])(
    "turns an error labelled %s into StoreNotWritableError, whatever its code",
    (label) => {
      expectUnavailable(serverError(999_999, "SomethingNew", [label]), label);
    },
  );

  it("turns a write concern error (the write may have been applied) into StoreNotWritableError", () => {
    const error = new MongoWriteConcernError({
      ok: 1,
      writeConcernError: { code: 64, codeName: "WriteConcernTimeout", errmsg: "waiting for replication timed out" },
    });
    expectUnavailable(error, "WriteConcernTimeout");
    const failed = new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 79, codeName: "UnknownReplWriteConcern", errmsg: "no such tag" } });
    expectUnavailable(failed, "MongoWriteConcernError");
  });

  it("turns the driver's connectivity errors into StoreUnavailableError (the store cannot be reached)", () => {
    expectUnreachable(new MongoNetworkError("connection 3 to 10.0.0.5:27017 closed"), "MongoNetworkError");
    expectUnreachable(new MongoNetworkTimeoutError("connection 3 to 10.0.0.5:27017 timed out"), "MongoNetworkTimeoutError");
    expectUnreachable(new MongoNotConnectedError("Client must be connected before running operations"), "MongoNotConnectedError");
    expectUnreachable(new MongoTopologyClosedError(), "MongoTopologyClosedError");
    expectUnreachable(new MongoClientClosedError(), "MongoClientClosedError");
  });

  it("turns the driver's operation timeout into StoreNotWritableError", () => {
    expectUnavailable(new MongoOperationTimeoutError("Timed out during withTransaction"), "MongoOperationTimeoutError");
  });

  it("turns the driver's own server selection failure into StoreUnavailableError", async () => {
    // Nothing listens on port 1: the driver gives up selecting a server by itself.
    const client = new MongoClient("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=100");
    const failure = await client
      .db("bayad")
      .command({ ping: 1 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await client.close();
    expect(failure).toBeInstanceOf(MongoServerSelectionError);
    expectUnreachable(failure, "MongoServerSelectionError");
  });

  it("never copies the driver's message, which may hold hosts or credentials", () => {
    const mapped = toStoreError(new MongoNetworkError("failed to connect to mongodb://bayad:s3cret@db-0:27017"), false) as Error;
    expect(mapped.message).not.toMatch(/s3cret|db-0/);
  });

  it("turns a full disk into StoreNotWritableError", () => {
    const error = serverError(14031, "OutOfDiskSpace");
    const mapped = toStoreError(error, false);
    expect(mapped).toBeInstanceOf(StoreNotWritableError);
    expect((mapped as Error).cause).toBe(error);
  });

  it("keeps a duplicate key a DuplicateKeyError naming the index, in a transaction too", () => {
    const error = new MongoServerError({
      ok: 0,
      code: 11000,
      codeName: "DuplicateKey",
      errmsg: 'E11000 duplicate key error collection: bayad.customers index: email_unique dup key: { email: "ana@example.ph" }',
    });
    for (const inTransaction of [false, true]) {
      const mapped = toStoreError(error, inTransaction);
      expect(mapped).toBeInstanceOf(DuplicateKeyError);
      expect((mapped as DuplicateKeyError).index).toBe("email_unique");
      expect((mapped as Error).cause).toBe(error);
    }
  });

  it("passes every other error through untouched inside a transaction, labels and all, for the runner", () => {
    const conflict = serverError(112, "WriteConflict", ["TransientTransactionError"]);
    expect(toStoreError(conflict, true)).toBe(conflict);
    const notPrimary = serverError(10107, "NotWritablePrimary");
    expect(toStoreError(notPrimary, true)).toBe(notPrimary);
  });

  it("leaves an error that says nothing about availability as it is (a fault, answered 500)", () => {
    const badValue = serverError(2, "BadValue");
    expect(toStoreError(badValue, false)).toBe(badValue);
    const domain = new RangeError("amount must be positive");
    expect(toStoreError(domain, false)).toBe(domain);
    const unavailable = new StoreUnavailableError("The MongoDB store is closed");
    expect(toStoreError(unavailable, false)).toBe(unavailable);
  });
});
