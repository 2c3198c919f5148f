import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callsInWindow, sliceWidthMs, withCall, type Slice } from "./sliding-window.js";

const setting = { limit: 5, windowSeconds: 900 };
const windowMs = setting.windowSeconds * 1000;

/** Offers a call at each time in turn; answers the times let through. */
function admit(times: number[], limit = setting): number[] {
  let slices: Slice[] = [];
  const admitted: number[] = [];
  for (const t of times) {
    if (callsInWindow(slices, limit, t).count < limit.limit) {
      slices = withCall(slices, limit, t);
      admitted.push(t);
    }
  }
  return admitted;
}

describe("sliding window", () => {
  it("lets no more than the limit through across a window's boundary", () => {
    const t0 = 10 * windowMs;
    // Five just before a fixed window would end, five just after: only the first five pass.
    const times = [...Array(5).keys()].map((i) => t0 - 3_000 + i).concat([...Array(5).keys()].map((i) => t0 + i));
    expect(admit(times)).toHaveLength(5);
  });

  it("answers when the oldest counted slice leaves the window, and lets a call through from then on", () => {
    const t0 = 10 * windowMs + 1_000;
    let slices: Slice[] = [];
    for (let i = 0; i < 5; i++) slices = withCall(slices, setting, t0 + i);
    const { count, freeAt } = callsInWindow(slices, setting, t0 + 60_000);
    expect(count).toBe(5);
    expect(freeAt).toBeGreaterThanOrEqual(t0 + windowMs);
    expect(freeAt).toBeLessThanOrEqual(t0 + windowMs + sliceWidthMs(setting));
    expect(callsInWindow(slices, setting, freeAt - 1).count).toBe(5);
    expect(callsInWindow(slices, setting, freeAt).count).toBeLessThan(5);
  });

  it("keeps only the slices that still count", () => {
    let slices: Slice[] = [];
    for (let i = 0; i < 100; i++) slices = withCall(slices, setting, i * 60_000);
    expect(slices.length).toBeLessThanOrEqual(31);
  });

  it("never lets more than the limit through in any window, and refuses only within a slice of a full window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 80 }),
        (limit, windowSeconds, gaps) => {
          const chosen = { limit, windowSeconds };
          const window = windowSeconds * 1000;
          const times: number[] = [];
          gaps.reduce((t, gap) => (times.push(t + gap), t + gap), 1_000_000);
          const admitted = admit(times, chosen);
          for (const t of admitted) {
            expect(admitted.filter((a) => a > t - window && a <= t).length).toBeLessThanOrEqual(limit);
          }
          // A refused call had a full window, give or take the oldest slice's width.
          for (const t of times.filter((time) => !admitted.includes(time))) {
            expect(admitted.filter((a) => a > t - window - sliceWidthMs(chosen) && a <= t).length).toBeGreaterThanOrEqual(limit);
          }
        },
      ),
    );
  });
});
