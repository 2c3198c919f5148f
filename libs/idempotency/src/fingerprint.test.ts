import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, idempotencyRecordId, recordIdsUnder, requestFingerprint } from "./fingerprint.js";

const secret = "gateway-secret-for-fingerprint-tests-0001";
const otherSecret = "gateway-secret-for-fingerprint-tests-0002";

describe("request fingerprints", () => {
  it("ignore the order of object keys at every depth", () => {
    const a = { body: { amount: { amountMinor: 100, currency: "PHP" }, referenceId: "r" }, params: {} };
    const b = { params: {}, body: { referenceId: "r", amount: { currency: "PHP", amountMinor: 100 } } };
    expect(requestFingerprint(secret, "createCheckout", canonicalJson(a))).toBe(requestFingerprint(secret, "createCheckout", canonicalJson(b)));
  });

  it("differ when a value, an array order or the operation differs", () => {
    const base = requestFingerprint(secret, "createCustomer", canonicalJson({ body: { tags: ["a", "b"], n: 1 } }));
    expect(requestFingerprint(secret, "createCustomer", canonicalJson({ body: { tags: ["b", "a"], n: 1 } }))).not.toBe(base);
    expect(requestFingerprint(secret, "createCustomer", canonicalJson({ body: { tags: ["a", "b"], n: 2 } }))).not.toBe(base);
    expect(requestFingerprint(secret, "createPlan", canonicalJson({ body: { tags: ["a", "b"], n: 1 } }))).not.toBe(base);
  });

  it("are keyed: the same request under another secret has another fingerprint, and none is the plain SHA-256", () => {
    const request = canonicalJson({ body: { recipient: "+639171234567", channel: "sms" }, params: {}, query: {} });
    const fingerprint = requestFingerprint(secret, "generateOtp", request);
    expect(requestFingerprint(otherSecret, "generateOtp", request)).not.toBe(fingerprint);
    // Without the secret, enumerating phone numbers through the unkeyed hash finds nothing.
    const unkeyed = (encoding: "hex" | "base64url") => createHash("sha256").update(`generateOtp\n${request}`).digest(encoding);
    expect([unkeyed("hex"), unkeyed("base64url")]).not.toContain(fingerprint);
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
      idempotencyRecordId(secret, "prj_a", "test", "k"),
      idempotencyRecordId(secret, "prj_a", "live", "k"),
      idempotencyRecordId(secret, "prj_b", "test", "k"),
    ]);
    expect(ids.size).toBe(3);
  });

  it("are keyed with the secret", () => {
    expect(idempotencyRecordId(otherSecret, "prj_a", "test", "k")).not.toBe(idempotencyRecordId(secret, "prj_a", "test", "k"));
  });

  it("are the same remembered as computed, across generations, and remembered apart per secret", () => {
    const recordIdOf = recordIdsUnder(secret, 3);
    const others = recordIdsUnder(otherSecret, 3);
    // The first keys are asked for again after two generations have replaced them.
    const asked = ["k1", "k2", "k1", "k3", "k4", "k5", "k2", "k6", "k7", "k8", "k1", "k1"];
    for (const key of asked) {
      expect(recordIdOf("prj_a", "test", key)).toBe(idempotencyRecordId(secret, "prj_a", "test", key));
      expect(recordIdOf("prj_a", "live", key)).toBe(idempotencyRecordId(secret, "prj_a", "live", key));
      expect(others("prj_a", "test", key)).toBe(idempotencyRecordId(otherSecret, "prj_a", "test", key));
    }
  });
});
