import { describe, expect, it } from "vitest";
import { backoffDelay, retryAfterMs } from "./retry-policy.js";
import { newIdempotencyKey } from "./idempotency-key.js";

describe("retry policy", () => {
  it("reads Retry-After as seconds or as an HTTP date, and ignores what it cannot read", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Tue, 01 Jan 2030 00:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Mon, 31 Dec 2029 23:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("doubles the pause from minDelayMs, jittered within its upper half, up to maxDelayMs", () => {
    const settings = { minDelayMs: 100, maxDelayMs: 1000 };
    for (let i = 0; i < 200; i++) {
      const first = backoffDelay(1, settings);
      expect(first).toBeGreaterThanOrEqual(50);
      expect(first).toBeLessThanOrEqual(100);
      const third = backoffDelay(3, settings);
      expect(third).toBeGreaterThanOrEqual(200);
      expect(third).toBeLessThanOrEqual(400);
      const late = backoffDelay(40, settings);
      expect(late).toBeGreaterThanOrEqual(500);
      expect(late).toBeLessThanOrEqual(1000);
    }
  });

  it("makes Idempotency-Keys of 16 to 255 characters, a new one each time", () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(16);
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(255);
  });
});
