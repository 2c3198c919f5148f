import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.js";

const maxTime = 8.64e15;

describe("isoTime", () => {
  it("is toISOString for every time Date can hold, in any order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -maxTime, max: maxTime }), { minLength: 1, maxLength: 20 }), (times) => {
        for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2_000 },
    );
  });

  it("is toISOString for times close together, across minute, year and epoch boundaries", () => {
    const around = [0, Date.parse("2026-12-31T23:59:59.999Z"), Date.parse("2024-02-29T00:00:00.000Z"), Date.parse("0000-01-01T00:00:00.000Z"), Date.parse("-000001-12-31T23:59:59.999Z"), maxTime, -maxTime];
    for (const base of around) {
      for (let delta = -1_500; delta <= 1_500; delta += 7) {
        const ms = Math.max(-maxTime, Math.min(maxTime, base + delta));
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }
    }
  });

  it("cuts a fractional time toward zero, as Date does", () => {
    for (const ms of [1.7, -1.7, 59_999.9, -60_000.5, 1_767_225_599_999.5]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("throws, as toISOString does, for NaN and for times out of range", () => {
    for (const ms of [Number.NaN, maxTime + 1, -maxTime - 1, maxTime + 59_000, Number.POSITIVE_INFINITY]) {
      expect(() => isoTime(ms)).toThrow(RangeError);
    }
  });
});
