import { MongoClient, MongoNetworkError, MongoServerError, MongoTransactionError, MongoWriteConcernError, type ClientSession } from "mongodb";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DuplicateKeyError, StoreNotWritableError } from "../port.js";
import { nextTransactionStep, retryBackoffMs, runBoundedTransaction, transactionDeadline } from "./bounded-transaction.js";

const labelled = (code: number, codeName: string, labels: string[]) => new MongoServerError({ ok: 0, code, codeName, errmsg: codeName, errorLabels: labels });
const writeConflict = () => labelled(112, "WriteConflict", ["TransientTransactionError"]);

describe("nextTransactionStep", () => {
  it("runs the whole transaction again after a transient error, in the work or at commit", () => {
    expect(nextTransactionStep(writeConflict(), "work")).toBe("retry-transaction");
    expect(nextTransactionStep(writeConflict(), "commit")).toBe("retry-transaction");
    const network = new MongoNetworkError("connection closed");
    network.addErrorLabel("TransientTransactionError");
    expect(nextTransactionStep(network, "work")).toBe("retry-transaction");
  });

  it("retries only the commit when its result is unknown, unless the commit ran out of its own time", () => {
    const unknown = new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 64, codeName: "WriteConcernTimeout", errmsg: "timed out" } });
    unknown.addErrorLabel("UnknownTransactionCommitResult");
    expect(nextTransactionStep(unknown, "commit")).toBe("retry-commit");
    expect(nextTransactionStep(labelled(50, "MaxTimeMSExpired", ["UnknownTransactionCommitResult"]), "commit")).toBe("give-up");
    // The label means nothing outside a commit.
    expect(nextTransactionStep(unknown, "work")).toBe("give-up");
  });

  it("gives up on anything else: a driver error without a retry label, the caller's own errors", () => {
    expect(nextTransactionStep(labelled(10107, "NotWritablePrimary", []), "work")).toBe("give-up");
    expect(nextTransactionStep(new DuplicateKeyError("email_unique"), "work")).toBe("give-up");
    expect(nextTransactionStep(new Error("invoice already paid"), "commit")).toBe("give-up");
  });
});

describe("retryBackoffMs", () => {
  it("grows from 5 ms by half each retry up to 250 ms, scaled by the jitter", () => {
    expect(retryBackoffMs(1, 0.999_999)).toBeCloseTo(7.5, 3);
    expect(retryBackoffMs(2, 0.5)).toBeCloseTo(5.625, 3);
    expect(retryBackoffMs(30, 0.999_999)).toBeCloseTo(250, 3);
    expect(retryBackoffMs(30, 0)).toBe(0);
  });
});

// A real driver session of a client that never connects: starting, aborting and committing a
// transaction in which nothing was sent stays inside the driver, so the runner's loop is tested
// with the driver's own state machine and nothing imitates a server.
describe("runBoundedTransaction", () => {
  /**
   * How the session's last transaction ended, by the driver's public rules: committing again
   * after a commit is a no-op; after an abort the driver refuses.
   */
  const endedBy = (session: ClientSession): Promise<"commit" | "abort"> =>
    session.commitTransaction().then(
      () => "commit",
      (error: unknown) => {
        if (error instanceof MongoTransactionError) return "abort";
        throw error;
      },
    );

  const client = new MongoClient("mongodb://127.0.0.1:1/?replicaSet=rs0&serverSelectionTimeoutMS=100");
  let session: ClientSession;
  beforeEach(() => {
    session = client.startSession();
  });
  afterEach(async () => {
    await session.endSession();
  });
  afterAll(async () => {
    await client.close();
  });

  it("runs the work again after transient errors, then commits and returns its result", async () => {
    let runs = 0;
    const result = await runBoundedTransaction(
      session,
      async () => {
        runs += 1;
        if (runs < 3) throw writeConflict();
        return "committed";
      },
      transactionDeadline(5_000),
      {},
    );
    expect(result).toBe("committed");
    expect(runs).toBe(3);
    expect(await endedBy(session)).toBe("commit");
  });

  it("gives up at the deadline with StoreNotWritableError (503 STORE_UNAVAILABLE), the last transient error as its cause", async () => {
    let runs = 0;
    const last = { error: writeConflict() };
    const failure = await runBoundedTransaction(
      session,
      async () => {
        runs += 1;
        last.error = writeConflict();
        throw last.error;
      },
      transactionDeadline(200),
      {},
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreNotWritableError);
    expect((failure as Error).message).toBe("MongoDB transaction did not complete within 200 ms (TransientTransactionError)");
    expect((failure as Error).cause).toBe(last.error);
    expect(runs).toBeGreaterThan(1);
    expect(session.inTransaction()).toBe(false);
    expect(await endedBy(session)).toBe("abort");
  });

  it("aborts and rethrows the caller's own error at once, without running the work again", async () => {
    let runs = 0;
    const refusal = new Error("invoice already paid");
    const failure = await runBoundedTransaction(
      session,
      async () => {
        runs += 1;
        throw refusal;
      },
      transactionDeadline(5_000),
      {},
    ).catch((error: unknown) => error);
    expect(failure).toBe(refusal);
    expect(runs).toBe(1);
    expect(session.inTransaction()).toBe(false);
    expect(await endedBy(session)).toBe("abort");
  });

  it("maps a driver error that escapes without a retry label: a primary gone is StoreNotWritableError", async () => {
    const notPrimary = labelled(10107, "NotWritablePrimary", []);
    const failure = await runBoundedTransaction(
      session,
      () => Promise.reject(notPrimary),
      transactionDeadline(5_000),
      {},
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreNotWritableError);
    expect((failure as Error).cause).toBe(notPrimary);
  });

  it("does not commit work that finished past the deadline", async () => {
    const deadline = transactionDeadline(1);
    const failure = await runBoundedTransaction(
      session,
      async () => {
        while (performance.now() < deadline.at) await new Promise((resolve) => setImmediate(resolve));
        return "too late";
      },
      deadline,
      {},
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreNotWritableError);
    expect(await endedBy(session)).toBe("abort");
  });
});
