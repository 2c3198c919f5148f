import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { RecentIds } from "./recent-ids.js";

describe("RecentIds (the in-process bus's duplicate window)", () => {
  it("reports an id taken within the window, and forgets it once the window has passed", () => {
    const ids = new RecentIds(1000, 100);
    expect(ids.seenElseRemember("evt_a", 0)).toBe(false);
    expect(ids.seenElseRemember("evt_a", 999)).toBe(true);
    expect(ids.seenElseRemember("evt_a", 1000)).toBe(false);
    expect(ids.seenElseRemember("evt_a", 1500)).toBe(true);
  });

  it("forgets the oldest ids first when it holds as many as it may", () => {
    const ids = new RecentIds(60_000, 3);
    for (const id of ["a", "b", "c", "d"]) ids.seenElseRemember(id, 0);
    expect(ids.size).toBe(3);
    expect(ids.seenElseRemember("a", 1)).toBe(false);
    expect(ids.seenElseRemember("d", 1)).toBe(true);
  });

  it("answers as a list of (id, until) pairs scanned from the oldest, over long runs", () => {
    const step = fc.record({ id: fc.integer({ min: 0, max: 3000 }), advance: fc.integer({ min: 0, max: 40 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 4000 }), fc.integer({ min: 1, max: 2500 }), (steps, maxIds) => {
        const windowMs = 1000;
        const ids = new RecentIds(windowMs, maxIds);
        let model: Array<{ id: string; until: number }> = [];
        let now = 0;
        for (const { id, advance } of steps) {
          now += advance;
          model = model.filter((entry) => entry.until > now);
          while (model.length >= maxIds) model.shift();
          const inModel = model.some((entry) => entry.id === `evt_${id}`);
          if (!inModel) model.push({ id: `evt_${id}`, until: now + windowMs });
          expect(ids.seenElseRemember(`evt_${id}`, now)).toBe(inModel);
          expect(ids.size).toBe(model.length);
        }
      }),
      { numRuns: 40 },
    );
  });
});
