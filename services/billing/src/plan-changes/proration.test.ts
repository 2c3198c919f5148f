import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addIntervals } from "../clock/billing-periods.js";
import { divideHalfEven, prorate } from "./proration.js";

const S = 1000;
const DAY = 24 * 60 * 60 * S;
/** Midnight (Manila) of a date, as its UTC instant. */
const manila = (date: string) => new Date(`${date}T00:00:00.000+08:00`);

describe("divideHalfEven", () => {
  it("rounds to the nearest integer, ties to the even one, symmetrically for negatives", () => {
    expect([5n, 15n, 25n, 35n, 14n, 16n].map((n) => divideHalfEven(n, 10n))).toEqual([0n, 2n, 2n, 4n, 1n, 2n]);
    expect([-5n, -15n, -25n, -16n].map((n) => divideHalfEven(n, 10n))).toEqual([0n, -2n, -2n, -2n]);
    expect(divideHalfEven(7n, 1n)).toBe(7n);
    expect(() => divideHalfEven(1n, 0n)).toThrow(RangeError);
  });
});

describe("prorate", () => {
  const march = { periodStart: manila("2027-03-01"), periodEnd: manila("2027-04-01") }; // 31 days
  const february = { periodStart: manila("2027-02-01"), periodEnd: manila("2027-03-01") }; // 28 days

  it("at the period's first second credits the whole old price and charges the whole new one", () => {
    expect(prorate({ ...march, at: march.periodStart, oldAmountMinor: 499_00, newAmountMinor: 999_00 })).toEqual({
      remainingSeconds: 31 * 86_400,
      periodSeconds: 31 * 86_400,
      creditMinor: -499_00,
      chargeMinor: 999_00,
      totalMinor: 500_00,
    });
  });

  it("at its last second prorates one second of it", () => {
    // 1 s of 2,678,400 s: 49,900 × 1 / 2,678,400 = 0.0186… → 0; 99,900 / 2,678,400 = 0.0373 → 0.
    const last = new Date(march.periodEnd.getTime() - S);
    expect(prorate({ ...march, at: last, oldAmountMinor: 499_00, newAmountMinor: 999_00 })).toMatchObject({ remainingSeconds: 1, creditMinor: 0, chargeMinor: 0, totalMinor: 0 });
    // A price large enough to show the second: 2,678,400 × 7 centavos over 2,678,400 s → 7 per second.
    expect(prorate({ ...march, at: last, oldAmountMinor: 2_678_400 * 3, newAmountMinor: 2_678_400 * 7 })).toMatchObject({ creditMinor: -3, chargeMinor: 7, totalMinor: 4 });
  });

  it("mid-month: February 15 is exactly half of February, March 16 a bit less than half of March", () => {
    // February (28 days), from Feb 15 00:00: 14 of 28 days left = 1/2.
    // Upgrade ₱499 → ₱999: credit 49,900 / 2 = 24,950; charge 99,900 / 2 = 49,950; total 25,000.
    expect(prorate({ ...february, at: manila("2027-02-15"), oldAmountMinor: 499_00, newAmountMinor: 999_00 })).toMatchObject({
      remainingSeconds: 14 * 86_400,
      periodSeconds: 28 * 86_400,
      creditMinor: -24_950,
      chargeMinor: 49_950,
      totalMinor: 25_000,
    });
    // March (31 days), from Mar 16 00:00: 16 of 31 days left.
    // credit 49,900 × 16 / 31 = 25,754.838… → 25,755; charge 99,900 × 16 / 31 = 51,561.290… → 51,561.
    expect(prorate({ ...march, at: manila("2027-03-16"), oldAmountMinor: 499_00, newAmountMinor: 999_00 })).toMatchObject({
      remainingSeconds: 16 * 86_400,
      periodSeconds: 31 * 86_400,
      creditMinor: -25_755,
      chargeMinor: 51_561,
      totalMinor: 25_806,
    });
  });

  it("a downgrade is a net credit: 31-day month, 10 days left, ₱999 → ₱499", () => {
    // credit 99,900 × 10 / 31 = 32,225.806… → 32,226; charge 49,900 × 10 / 31 = 16,096.774… → 16,097.
    expect(prorate({ ...march, at: manila("2027-03-22"), oldAmountMinor: 999_00, newAmountMinor: 499_00 })).toMatchObject({
      creditMinor: -32_226,
      chargeMinor: 16_097,
      totalMinor: -16_129,
    });
  });

  it("rounds a tie to the even centavo", () => {
    // A 2-second period, 1 second left: 25 × 1 / 2 = 12.5 → 12; 27 / 2 = 13.5 → 14.
    const periodStart = new Date(0);
    const periodEnd = new Date(2 * S);
    expect(prorate({ periodStart, periodEnd, at: new Date(S), oldAmountMinor: 25, newAmountMinor: 27 })).toMatchObject({ creditMinor: -12, chargeMinor: 14 });
  });

  it("measures whole seconds: the second a change falls in is still remaining", () => {
    const at = new Date(march.periodStart.getTime() + 999);
    expect(prorate({ ...march, at, oldAmountMinor: 1, newAmountMinor: 2 }).remainingSeconds).toBe(31 * 86_400);
    const lastMs = new Date(march.periodEnd.getTime() - 1);
    expect(prorate({ ...march, at: lastMs, oldAmountMinor: 1, newAmountMinor: 2 }).remainingSeconds).toBe(1);
  });

  it("refuses an instant outside the period", () => {
    expect(() => prorate({ ...march, at: march.periodEnd, oldAmountMinor: 1, newAmountMinor: 2 })).toThrow(RangeError);
    expect(() => prorate({ ...march, at: new Date(march.periodStart.getTime() - 1), oldAmountMinor: 1, newAmountMinor: 2 })).toThrow(RangeError);
  });

  it("is exact where a float would not be: amounts near 2^53 over a ten-year period", () => {
    const periodStart = manila("2027-01-01");
    const periodEnd = addIntervals(periodStart, { interval: "yearly", intervalCount: 10 }, 1);
    const at = new Date(periodStart.getTime() + 1234 * DAY + 5 * S);
    const big = Number.MAX_SAFE_INTEGER;
    const { creditMinor, remainingSeconds, periodSeconds } = prorate({ periodStart, periodEnd, at, oldAmountMinor: big, newAmountMinor: 1 });
    const exact = divideHalfEven(BigInt(big) * BigInt(remainingSeconds), BigInt(periodSeconds));
    expect(BigInt(-creditMinor)).toBe(exact);
    expect(Number.isSafeInteger(creditMinor)).toBe(true);
  });

  it("each line is within half a centavo of the exact rational amount, and the total is their sum", () => {
    const periods = fc.record({
      start: fc.integer({ min: Date.parse("2026-01-01"), max: Date.parse("2030-01-01") }),
      interval: fc.constantFrom("weekly" as const, "monthly" as const, "yearly" as const),
      intervalCount: fc.integer({ min: 1, max: 10 }),
      fraction: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      oldAmountMinor: fc.integer({ min: 2000, max: Number.MAX_SAFE_INTEGER }),
      newAmountMinor: fc.integer({ min: 2000, max: Number.MAX_SAFE_INTEGER }),
    });
    fc.assert(
      fc.property(periods, ({ start, interval, intervalCount, fraction, oldAmountMinor, newAmountMinor }) => {
        const periodStart = new Date(Math.floor(start / S) * S);
        const periodEnd = addIntervals(periodStart, { interval, intervalCount }, 1);
        const at = new Date(periodStart.getTime() + Math.floor(fraction * (periodEnd.getTime() - periodStart.getTime())));
        const result = prorate({ periodStart, periodEnd, at, oldAmountMinor, newAmountMinor });
        const T = BigInt(result.periodSeconds);
        const r = BigInt(result.remainingSeconds);
        // |line − amount × r / T| ≤ 1/2  ⇔  |2 × (line × T − amount × r)| ≤ T
        const withinHalf = (line: number, amount: number) => {
          const error = 2n * (BigInt(line) * T - BigInt(amount) * r);
          return (error < 0n ? -error : error) <= T;
        };
        expect(withinHalf(-result.creditMinor, oldAmountMinor)).toBe(true);
        expect(withinHalf(result.chargeMinor, newAmountMinor)).toBe(true);
        expect(result.totalMinor).toBe(result.creditMinor + result.chargeMinor);
        expect(result.creditMinor).toBeLessThanOrEqual(0);
        expect(result.remainingSeconds).toBeGreaterThanOrEqual(1);
        expect(result.remainingSeconds).toBeLessThanOrEqual(result.periodSeconds);
      }),
      { numRuns: 500 },
    );
  });
});
