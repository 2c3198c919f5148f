import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PaymongoSimulatorError } from "./api-error.js";
import { IdempotencyStore, requestFingerprint } from "./idempotency-store.js";
import { startPaymongoSimulator, type PaymongoSimulator } from "./index.js";
import { apiClient, type ApiClient } from "./test-support/api-client.js";

let sim: PaymongoSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startPaymongoSimulator({ idempotencyKeyTtlMs: 400 });
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

const intentAttributes = (amount = 25_000) => ({ amount, currency: "PHP", payment_method_allowed: ["qrph"], metadata: { bayad_resource_id: "pi_1" } });
const keyed = (key: string) => ({ "idempotency-key": key });
const intentsOf = (resourceId: string) =>
  sim.objects("payment_intent").filter((o) => (o as { attributes: { metadata: Record<string, string> | null } }).attributes.metadata?.bayad_resource_id === resourceId);

describe("Idempotency-Key", () => {
  it("replays the first answer to a create for the same key and account, making one object", async () => {
    const first = await api.post("/v1/payment_intents", intentAttributes(), keyed("key-1"));
    const again = await api.post("/v1/payment_intents", intentAttributes(), keyed("key-1"));
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(intentsOf("pi_1")).toHaveLength(1);
    // Another account's same key is its own.
    const other = await apiClient(sim.url).post("/v1/payment_intents", intentAttributes(), keyed("key-1"));
    expect(other.body.data.id).not.toBe(first.body.data.id);
    // Without a key each create is a new object.
    await api.post("/v1/payment_intents", intentAttributes());
    expect(intentsOf("pi_1")).toHaveLength(3);
  });

  it("replays a create whose answer was lost: the retry gets the object the first request made", async () => {
    sim.injectFault({ method: "POST", path: "/v1/payment_intents", status: 502, afterProcessing: true });
    const lost = await api.post("/v1/payment_intents", intentAttributes(), keyed("key-lost"));
    expect(lost.status).toBe(502);
    const made = intentsOf("pi_1");
    expect(made).toHaveLength(1);
    const retried = await api.post("/v1/payment_intents", intentAttributes(), keyed("key-lost"));
    expect(retried.status).toBe(200);
    expect(retried.body.data.id).toBe((made[0] as { id: string }).id);
    expect(intentsOf("pi_1")).toHaveLength(1);
  });

  it("stores nothing for a request that fails validation: the key can be used for the corrected request", async () => {
    const invalid = await api.post("/v1/payment_intents", intentAttributes(100), keyed("key-fix"));
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].code).toBe("parameter_below_minimum");
    const fixed = await api.post("/v1/payment_intents", intentAttributes(), keyed("key-fix"));
    expect(fixed.status).toBe(200);
  });

  it("refuses the same key with other parameters, and makes nothing", async () => {
    await api.post("/v1/payment_intents", intentAttributes(), keyed("key-2"));
    const other = await api.post("/v1/payment_intents", intentAttributes(30_000), keyed("key-2"));
    expect(other.status).toBe(400);
    expect(other.body.errors[0].code).toBe("idempotency_key_mismatch");
    expect(intentsOf("pi_1")).toHaveLength(1);
    // Attribute order does not make a request another one.
    const { metadata, amount, currency, payment_method_allowed } = intentAttributes();
    expect((await api.post("/v1/payment_intents", { metadata, payment_method_allowed, currency, amount }, keyed("key-2"))).status).toBe(200);
  });

  it("forgets a key once it expired: the same key makes a new object", async () => {
    const first = await api.post("/v1/payment_intents", intentAttributes(), keyed("key-ttl"));
    await expect.poll(async () => (await api.post("/v1/payment_intents", intentAttributes(), keyed("key-ttl"))).body.data.id, { timeout: 5_000, interval: 100 }).not.toBe(
      first.body.data.id,
    );
  });

  it("refuses a key longer than 255 characters", async () => {
    const answer = await api.post("/v1/payment_intents", intentAttributes(), keyed("k".repeat(256)));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: "parameter_invalid", source: { attribute: "Idempotency-Key" } });
    expect(intentsOf("pi_1")).toHaveLength(0);
  });
});

describe("IdempotencyStore", () => {
  it("answers 409 idempotency_in_progress to a duplicate while the first is running, and nothing is stored for it", async () => {
    const store = new IdempotencyStore();
    const fingerprint = requestFingerprint("POST", "/v1/refunds", { amount: 100 });
    let finish!: (body: unknown) => void;
    const first = store.run("acct", "key", fingerprint, () => new Promise((resolve) => (finish = resolve)));
    const duplicate = await store.run("acct", "key", fingerprint, async () => ({ data: "second" })).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(PaymongoSimulatorError);
    expect(duplicate).toMatchObject({ status: 409, code: "idempotency_in_progress" });
    finish({ data: "first" });
    await expect(first).resolves.toEqual({ data: "first" });
    await expect(store.run("acct", "key", fingerprint, async () => ({ data: "third" }))).resolves.toEqual({ data: "first" });
  });

  it("stores a failure past validation and replays it though the request would now succeed; a validation failure is not stored", async () => {
    const store = new IdempotencyStore();
    const fingerprint = requestFingerprint("POST", "/v1/refunds", { amount: 100 });
    const pending = new PaymongoSimulatorError(400, [{ code: "resource_pending_state", detail: "A refund is pending." }]);
    await expect(store.run("acct", "refused", fingerprint, () => Promise.reject(pending))).rejects.toBe(pending);
    await expect(store.run("acct", "refused", fingerprint, async () => ({ data: "made" }))).rejects.toBe(pending);

    const invalid = new PaymongoSimulatorError(400, [{ code: "parameter_below_minimum", detail: "Too small." }]);
    await expect(store.run("acct", "invalid", fingerprint, () => Promise.reject(invalid))).rejects.toBe(invalid);
    await expect(store.run("acct", "invalid", fingerprint, async () => ({ data: "made" }))).resolves.toEqual({ data: "made" });
  });
});
