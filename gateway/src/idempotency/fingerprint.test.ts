import { describe, expect, it } from "vitest";
import { canonicalJson, idempotencyRecordId, requestFingerprint } from "./fingerprint.js";

describe("request fingerprints", () => {
  it("ignore the order of object keys at every depth", () => {
    const a = { body: { amount: { amountMinor: 100, currency: "PHP" }, referenceId: "r" }, params: {} };
    const b = { params: {}, body: { referenceId: "r", amount: { currency: "PHP", amountMinor: 100 } } };
    expect(requestFingerprint("createCheckout", a)).toBe(requestFingerprint("createCheckout", b));
  });

  it("differ when a value, an array order or the operation differs", () => {
    const base = requestFingerprint("createCustomer", { body: { tags: ["a", "b"], n: 1 } });
    expect(requestFingerprint("createCustomer", { body: { tags: ["b", "a"], n: 1 } })).not.toBe(base);
    expect(requestFingerprint("createCustomer", { body: { tags: ["a", "b"], n: 2 } })).not.toBe(base);
    expect(requestFingerprint("createPlan", { body: { tags: ["a", "b"], n: 1 } })).not.toBe(base);
  });

  it("keep strings that look like structure apart", () => {
    expect(canonicalJson({ a: "1,\"b\":2" })).not.toBe(canonicalJson({ a: "1", b: 2 }));
  });
});

describe("idempotency record ids", () => {
  it("separate projects and environments for one key", () => {
    const ids = new Set([
      idempotencyRecordId("prj_a", "test", "k"),
      idempotencyRecordId("prj_a", "live", "k"),
      idempotencyRecordId("prj_b", "test", "k"),
    ]);
    expect(ids.size).toBe(3);
  });
});
