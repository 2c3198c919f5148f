import { createEmbeddedStore, type Store } from "@bayad/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIdempotencyRecords, type IdempotencyRecord, type StoredResponse } from "./idempotency-records.js";

const secret = "gateway-secret-for-idempotency-records-01";
const secretResponses = new Set(["createWebhookEndpoint", "rotateWebhookEndpointSecret"]);
const signingSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

let store: Store;
beforeEach(() => {
  store = createEmbeddedStore();
});
afterEach(() => store.close());

const raw = () => store.collection<IdempotencyRecord>({ name: "idempotency_records" });
const answerOf = (data: Record<string, unknown>): StoredResponse => ({ status: 201, body: { success: true, data } });

/** A record begun and completed with `response`, read back as stored. */
async function completed(records: ReturnType<typeof createIdempotencyRecords>, id: string, operationId: string, response: StoredResponse) {
  const begun = await records.begin({
    id,
    projectId: "prj_1",
    environment: "test",
    idempotencyKey: `key-of-${id}-0000000000`,
    operationId,
    fingerprint: "fp",
    request: "{}",
    leaseMs: 30_000,
    windowMs: 60_000,
  });
  if (!begun.started) throw new Error("the key was taken");
  await records.complete(id, begun.attempt, operationId, response);
  return (await raw().findOne({ _id: id }))!;
}

describe("createIdempotencyRecords", () => {
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
