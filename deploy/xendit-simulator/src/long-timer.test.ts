import { Timers } from "@bayad/simulator-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterLong } from "./long-timer.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("afterLong", () => {
  it("waits longer than setTimeout holds (2^31 - 1 ms), in steps, instead of firing at once", () => {
    const timers = new Timers();
    let fired = 0;
    afterLong(timers, 365 * 86_400_000, () => (fired += 1));
    vi.advanceTimersByTime(2 ** 31);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(365 * 86_400_000 - 2 ** 31 - 1);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fired).toBe(1);
  });

  it("is cleared with the simulator's other timers, whichever step it is at", () => {
    const timers = new Timers();
    let fired = 0;
    afterLong(timers, 2 ** 32, () => (fired += 1));
    vi.advanceTimersByTime(2 ** 31);
    timers.clear();
    vi.advanceTimersByTime(2 ** 32);
    expect(fired).toBe(0);
  });
});
