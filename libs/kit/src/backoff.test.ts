import { describe, expect, it } from "vitest";
import { backoffDelay, doublingDelay, jitteredBackoff, lostRaceBackoff } from "./backoff.js";

const settings = { initialDelayMs: 100, maxDelayMs: 5_000 };

/** d of the n-th failure: the schedule's ceiling before jitter. */
const ceiling = (failures: number) => Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** (failures - 1));

describe("backoffDelay", () => {
  it("doubles with each failure, keeping at least half of it under jitter, and never passes the cap", () => {
    for (let failures = 1; failures <= 40; failures++) {
      for (let draw = 0; draw < 50; draw++) {
        const delay = backoffDelay(settings, failures);
        expect(delay).toBeGreaterThanOrEqual(ceiling(failures) / 2);
        expect(delay).toBeLessThanOrEqual(ceiling(failures));
      }
    }
    // Grows: the 4th delay is always longer than any 1st, and the 40th sits at the cap's range.
    expect(backoffDelay(settings, 4)).toBeGreaterThan(settings.initialDelayMs);
    expect(backoffDelay(settings, 40)).toBeGreaterThanOrEqual(settings.maxDelayMs / 2);
  });

  it("jitters: replicas that failed together do not all wait the same", () => {
    const draws = new Set(Array.from({ length: 20 }, () => backoffDelay(settings, 5)));
    expect(draws.size).toBeGreaterThan(1);
  });

  it("treats zero failures as the first", () => {
    expect(backoffDelay(settings, 0)).toBeLessThanOrEqual(settings.initialDelayMs);
  });
});

describe("jitteredBackoff", () => {
  it("gives a cockatiel retry policy the same schedule", () => {
    let backoff = jitteredBackoff(settings).next();
    for (let failures = 1; failures <= 12; failures++) {
      if (failures > 1) backoff = backoff.next(undefined);
      expect(backoff.duration).toBeGreaterThanOrEqual(ceiling(failures) / 2);
      expect(backoff.duration).toBeLessThanOrEqual(ceiling(failures));
    }
  });
});

describe("lostRaceBackoff", () => {
  it("waits a millisecond or less after the first lost race, and never more than 100 ms however many follow", () => {
    expect(backoffDelay(lostRaceBackoff, 1)).toBeLessThanOrEqual(1);
    for (let lost = 1; lost <= 50; lost++) expect(backoffDelay(lostRaceBackoff, lost)).toBeLessThanOrEqual(100);
    expect(backoffDelay(lostRaceBackoff, 50)).toBeGreaterThanOrEqual(50);
  });
});

describe("doublingDelay", () => {
  it("starts at the initial delay, doubles with each failure in a row, and stops at the cap, without jitter", () => {
    const settings = { initialDelayMs: 60_000, maxDelayMs: 300_000 };
    expect([1, 2, 3, 4, 5].map((failures) => doublingDelay(settings, failures))).toEqual([60_000, 120_000, 240_000, 300_000, 300_000]);
    expect(doublingDelay(settings, 0)).toBe(60_000);
  });
});
