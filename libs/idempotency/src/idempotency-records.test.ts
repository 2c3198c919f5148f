import type { Store } from "@bayad/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIdempotencyRecords, type IdempotencyRecord, type StoredResponse } from "./idempotency-records.js";
import { createTestStore } from "@bayad/store/testing";

const secret = "gateway-secret-for-idempotency-records-01";
const secretResponses = new Set(["createWebhookEndpoint", "rotateWebhookEndpointSecret"]);
const signingSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

let store: Store;
beforeEach(() => {
  store = createTestStore();
});
afterEach(() => {
  vi.useRealTimers();
  return store.close();
});

const raw = () => store.collection<IdempotencyRecord>({ name: "idempotency_records" });
const answerOf = (data: Record<string, unknown>): StoredResponse => ({ status: 201, body: { success: true, data } });

const attemptOf = (id: string, operationId: string) => ({
  id,
  projectId: "prj_1",
  environment: "test" as const,
  idempotencyKey: `key-of-${id}-0000000000`,
  operationId,
  fingerprint: "fp",
  request: "{}",
  leaseMs: 30_000,
  windowMs: 60_000,
});

/** A record begun and completed with `response`, read back as stored. */
async function completed(records: ReturnType<typeof createIdempotencyRecords>, id: string, operationId: string, response: StoredResponse) {
  const begun = await records.begin(attemptOf(id, operationId));
  if (!begun.started) throw new Error("the key was taken");
  await records.complete(id, begun.attempt, operationId, response);
  return (await raw().findOne({ _id: id }))!;
}

describe("createIdempotencyRecords", () => {
  it("replays a completed record it has read from the heap, until the record expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    const answer = answerOf({ customerId: "cus_9" });
    await completed(records, "rec_9", "createCustomer", answer);
    const replay = await records.begin(attemptOf("rec_9", "createCustomer"));
    expect(replay.started).toBe(false);

    // Gone from the store (as a TTL sweep would take it), yet still replayed: the copy read above answers.
    await raw().deleteOne({ _id: "rec_9" });
    const fromHeap = await records.begin(attemptOf("rec_9", "createCustomer"));
    expect(fromHeap.started).toBe(false);
    if (!fromHeap.started) expect(records.responseOf(fromHeap.existing)).toEqual(answer);

    // Once its window is over the copy is not used: the key is free again.
    vi.setSystemTime(Date.now() + 60_001);
    expect((await records.begin(attemptOf("rec_9", "createCustomer"))).started).toBe(true);
  });

  it("reads a record whose answer is sealed from the store at every replay", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    await completed(records, "rec_10", "createWebhookEndpoint", answerOf({ secret: signingSecret }));
    expect((await records.begin(attemptOf("rec_10", "createWebhookEndpoint"))).started).toBe(false);

    await raw().deleteOne({ _id: "rec_10" });
    expect((await records.begin(attemptOf("rec_10", "createWebhookEndpoint"))).started).toBe(true);
  });

  it("does not keep a record that is still in progress", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    expect((await records.begin(attemptOf("rec_11", "createCustomer"))).started).toBe(true);
    const again = await records.begin(attemptOf("rec_11", "createCustomer"));
    expect(again.started).toBe(false);
    if (!again.started) expect(again.existing.state).toBe("in_progress");

    await raw().deleteOne({ _id: "rec_11" });
    expect((await records.begin(attemptOf("rec_11", "createCustomer"))).started).toBe(true);
  });

  it("keeps the answer of an operation that answers a secret sealed, and opens it to replay it", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    const answer = answerOf({ webhookEndpointId: "we_1", secret: signingSecret });

    const stored = await completed(records, "rec_1", "createWebhookEndpoint", answer);

    expect(stored.state).toBe("completed");
    expect(stored.response).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(signingSecret.slice("whsec_".length));
    expect(records.responseOf(stored)).toEqual(answer);
  });

  it("keeps other answers as they were sent", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    const answer = answerOf({ customerId: "cus_1" });

    const stored = await completed(records, "rec_2", "createCustomer", answer);

    expect(JSON.parse(stored.response!)).toEqual(answer);
    expect(stored.sealedResponse).toBeUndefined();
    expect(records.responseOf(stored)).toEqual(answer);
  });

  it("does not open a sealed answer copied onto another record, nor one sealed under another secret", async () => {
    const records = createIdempotencyRecords(store, { secret, secretResponses });
    const stored = await completed(records, "rec_3", "createWebhookEndpoint", answerOf({ secret: signingSecret }));

    expect(() => records.responseOf({ ...stored, _id: "rec_other" })).toThrow();
    expect(() => createIdempotencyRecords(store, { secret: `${secret}-changed`, secretResponses }).responseOf(stored)).toThrow();
  });

  it("seals, on a reseal, the secret answers an earlier version kept in clear, and leaves the others", async () => {
    const before = createIdempotencyRecords(store, { secret, secretResponses: new Set() });
    const secretAnswer = answerOf({ secret: signingSecret });
    const otherAnswer = answerOf({ customerId: "cus_1" });
    await completed(before, "rec_4", "rotateWebhookEndpointSecret", secretAnswer);
    await completed(before, "rec_5", "createCustomer", otherAnswer);
    expect(JSON.stringify(await raw().find({}))).toContain(signingSecret);

    const records = createIdempotencyRecords(store, { secret, secretResponses });
    expect(await records.resealSecrets()).toEqual({ resealed: 1, current: 0, unreadable: 0 });

    expect(JSON.stringify(await raw().find({}))).not.toContain(signingSecret);
    expect(records.responseOf((await raw().findOne({ _id: "rec_4" }))!)).toEqual(secretAnswer);
    expect((await raw().findOne({ _id: "rec_5" }))!.response).toBe(JSON.stringify(otherAnswer));
    expect(await records.resealSecrets()).toEqual({ resealed: 0, current: 1, unreadable: 0 });
  });
});
