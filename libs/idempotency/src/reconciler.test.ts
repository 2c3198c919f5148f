import { AppError, createLogger } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalJson } from "./fingerprint.js";
import { createIdempotencyRecords, type IdempotencyRecord } from "./idempotency-records.js";
import type { OperationRunner } from "./operation-runner.js";
import { createReconciler } from "./reconciler.js";
import { createTestStore } from "@bayad/store/testing";

const secret = "gateway-secret-for-reconciler-tests-0001";
const retryBaseMs = 1_000;
const maxRetryDelayMs = 5 * 60_000;
const logger = createLogger("test", "silent");
const secretResponses = new Set(["rotateWebhookEndpointSecret"]);
const errorBody = (error: AppError) => ({ code: error.code });

let store: Store;

beforeEach(() => {
  store = createTestStore();
});
afterEach(() => store.close());

/** A key whose request is stored (sealed) and claimable at once, as after a crash. */
async function unsettledRecord(records: ReturnType<typeof createIdempotencyRecords>, id = "rec_1", operationId = "verifyOtp") {
  const begun = await records.begin({
    id,
    projectId: "prj_1",
    environment: "test",
    idempotencyKey: "key-for-reconciler-tests",
    operationId,
    fingerprint: "fp",
    request: canonicalJson({ params: {}, query: {}, body: { otpId: "otp_1", code: "123456" } }),
    leaseMs: 0,
    windowMs: 60_000,
  });
  expect(begun.started).toBe(true);
  return id;
}

const raw = () => store.collection<IdempotencyRecord>({ name: "idempotency_records" });

describe("createReconciler", () => {
  it("waits longer after each reconciliation that still fails (doubling, jittered, capped at 5 minutes)", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    const inputs: unknown[] = [];
    const run: OperationRunner<unknown> = async (_operationId, input) => {
      inputs.push(input);
      throw new AppError("SERVICE_UNAVAILABLE");
    };
    const reconciler = createReconciler({ records, run, leaseMs: 30_000, intervalMs: 60_000, retryBaseMs, errorBody, logger });
    const id = await unsettledRecord(records);

    for (let attempt = 1; attempt <= 12; attempt++) {
      const before = Date.now();
      await reconciler.reconcileNow(id);
      const after = Date.now();
      const record = (await records.find(id))!;
      expect(record).toMatchObject({ state: "unknown", reconcileAttempts: attempt });
      // The retry time is after + d·[½, 1], d = min(5 min, base·2^(attempt−1)): bracketed by the
      // clock readings around the call, so how long the call took does not matter.
      const ceiling = Math.min(maxRetryDelayMs, retryBaseMs * 2 ** (attempt - 1));
      expect(record.leaseUntil.getTime(), `attempt ${attempt}`).toBeGreaterThanOrEqual(before + ceiling / 2);
      expect(record.leaseUntil.getTime(), `attempt ${attempt}`).toBeLessThanOrEqual(after + ceiling);
      // Due again now, as if that time had passed.
      await raw().updateOne({ _id: id }, { $set: { leaseUntil: new Date(0) } });
    }
    // Each run got the request as it was sent, opened from its sealed copy.
    expect(inputs).toHaveLength(12);
    expect(inputs[0]).toEqual({ params: {}, query: {}, body: { otpId: "otp_1", code: "123456" } });
  });

  it("settles an operation whose answer carries a secret with that answer sealed, and replays it opened", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    const answer = { status: 200, body: { success: true, data: { webhookEndpointId: "we_1", secret: "whsec_c2VjcmV0LXNpZ25pbmcta2V5LWJ5dGVz" } } };
    const reconciler = createReconciler({ records, run: async () => answer, leaseMs: 30_000, intervalMs: 60_000, retryBaseMs, errorBody, logger });
    const id = await unsettledRecord(records, "rec_rotate", "rotateWebhookEndpointSecret");

    await reconciler.reconcileNow(id);

    const stored = (await raw().findOne({ _id: id }))!;
    expect(stored.state).toBe("completed");
    expect(JSON.stringify(stored)).not.toContain("whsec_");
    expect(records.responseOf(stored)).toEqual(answer);
  });

  it("releases a record whose request was sealed under another secret: no request can find it any more", async () => {
    const id = await unsettledRecord(createIdempotencyRecords(store, { secret: "an-earlier-gateway-secret-0000000000", secretResponses }));
    expect(JSON.stringify(await raw().findOne({ _id: id }))).not.toContain("123456");
    let runs = 0;
    const reconciler = createReconciler({
      records: createIdempotencyRecords(store, { secret, secretResponses }),
      run: async () => {
        runs++;
        return { status: 200, body: {} };
      },
      leaseMs: 30_000,
      intervalMs: 60_000,
      retryBaseMs,
      errorBody,
      logger,
    });
    await reconciler.reconcileNow(id);
    expect(await raw().findOne({ _id: id })).toBeNull();
    expect(runs).toBe(0);
  });
});
