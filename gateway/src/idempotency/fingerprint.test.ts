import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, idempotencyRecordId, requestFingerprint } from "./fingerprint.js";

describe("request fingerprints", () => {
  it("ignore the order of object keys at every depth", () => {
    const a = { body: { amount: { amountMinor: 100, currency: "PHP" }, referenceId: "r" }, params: {} };
    const b = { params: {}, body: { referenceId: "r", amount: { currency: "PHP", amountMinor: 100 } } };
    expect(requestFingerprint("createCheckout", canonicalJson(a))).toBe(requestFingerprint("createCheckout", canonicalJson(b)));
  });

  it("differ when a value, an array order or the operation differs", () => {
    const base = requestFingerprint("createCustomer", canonicalJson({ body: { tags: ["a", "b"], n: 1 } }));
    expect(requestFingerprint("createCustomer", canonicalJson({ body: { tags: ["b", "a"], n: 1 } }))).not.toBe(base);
    expect(requestFingerprint("createCustomer", canonicalJson({ body: { tags: ["a", "b"], n: 2 } }))).not.toBe(base);
    expect(requestFingerprint("createPlan", canonicalJson({ body: { tags: ["a", "b"], n: 1 } }))).not.toBe(base);
  });

  it("keep strings that look like structure apart", () => {
    expect(canonicalJson({ a: "1,\"b\":2" })).not.toBe(canonicalJson({ a: "1", b: 2 }));
  });

  it("are over JSON that reads back as the request (it is what reconciliation runs again)", () => {
    const input = { params: { id: "x" }, query: { limit: 5, tags: ["b", "a"] }, body: { note: "1,\"b\":2", skip: undefined } };
    expect(JSON.parse(canonicalJson(input))).toEqual({ params: { id: "x" }, query: { limit: 5, tags: ["b", "a"] }, body: { note: "1,\"b\":2" } });
  });
});

describe("canonicalJson", () => {
  /** The same value with every object's keys in reverse order. */
  const reversed = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reversed);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).reverse().map(([key, field]) => [key, reversed(field)]));
  };

  it("reads back as the value, whatever the key order, for any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reversed(value))).toBe(text);
      }),
    );
  });

  it("orders keys by UTF-16 code units and writes each as JSON.stringify does", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "\u00e9": {}, Z: 2.5 })).toBe('{"Z":2.5,"a":[true,null,"x"],"b":1,"\u00e9":{}}');
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
