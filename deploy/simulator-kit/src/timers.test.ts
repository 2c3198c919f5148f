import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Timers } from "./timers.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Timers", () => {
  it("runs a timer once its time has come, not before", () => {
    const timers = new Timers();
    const ran: string[] = [];
    timers.after(1000, () => ran.push("expired"));
    vi.advanceTimersByTime(999);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(["expired"]);
  });

  it("clears every timer still waiting, so none runs after the simulator closed", () => {
    const timers = new Timers();
    const ran: string[] = [];
    timers.after(10, () => ran.push("early"));
    timers.after(1000, () => ran.push("late"));
    vi.advanceTimersByTime(10);
    timers.clear();
    vi.advanceTimersByTime(5000);
    expect(ran).toEqual(["early"]);
  });
});
