import { describe, expect, it } from "vitest";
import { checkDunningSchedule, decideDunning, defaultDunningSchedule, dunningStepAt, manilaDaysUntil } from "./dunning-schedule.js";

const iso = (date: Date | undefined) => date?.toISOString();
// Feb 28, 2027, 12:00 in Manila.
const due = new Date("2027-02-28T04:00:00.000Z");

describe("dunning steps in Manila days", () => {
  it("puts each step at the due date's Manila time of day, that many days off", () => {
    expect(defaultDunningSchedule().steps.map((step) => iso(dunningStepAt(due, step.offsetDays)))).toEqual([
      "2027-02-25T04:00:00.000Z",
      "2027-02-28T04:00:00.000Z",
      "2027-03-03T04:00:00.000Z",
      "2027-03-07T04:00:00.000Z",
    ]);
  });

  it("counts calendar days in Manila, not in UTC and not in 24-hour spans", () => {
    // Due Mar 1 00:30 Manila (Feb 28 16:30 UTC).
    const justAfterMidnight = new Date("2027-02-28T16:30:00.000Z");
    // Feb 28 23:00 Manila: one Manila day before, though 90 minutes and the same UTC date.
    expect(manilaDaysUntil(justAfterMidnight, new Date("2027-02-28T15:00:00.000Z"))).toBe(1);
    // Mar 1 23:59 Manila: the due date's own day.
    expect(manilaDaysUntil(justAfterMidnight, new Date("2027-03-01T15:59:00.000Z"))).toBe(0);
    // Mar 4 00:00 Manila: overdue by 3 days.
    expect(manilaDaysUntil(justAfterMidnight, new Date("2027-03-03T16:00:00.000Z"))).toBe(-3);
    expect(manilaDaysUntil(due, dunningStepAt(due, -3))).toBe(3);
    expect(manilaDaysUntil(due, dunningStepAt(due, 7))).toBe(-7);
  });
});

describe("decideDunning", () => {
  const schedule = defaultDunningSchedule();

  it("waits for the first step, then takes each in turn, the last one final", () => {
    expect(decideDunning(schedule, due, 0, new Date("2027-02-25T03:59:59.999Z"))).toEqual({ kind: "wait", nextDunningAt: dunningStepAt(due, -3) });
    expect(decideDunning(schedule, due, 0, dunningStepAt(due, -3))).toEqual({
      kind: "step",
      index: 0,
      offsetDays: -3,
      dunningStep: 1,
      nextDunningAt: due,
      final: false,
    });
    expect(decideDunning(schedule, due, 1, dunningStepAt(due, -3))).toEqual({ kind: "wait", nextDunningAt: due });
    expect(decideDunning(schedule, due, 3, dunningStepAt(due, 7))).toMatchObject({ kind: "step", offsetDays: 7, dunningStep: 4, nextDunningAt: undefined, final: true });
    expect(decideDunning(schedule, due, 4, dunningStepAt(due, 60))).toEqual({ kind: "wait", nextDunningAt: undefined });
  });

  it("catching up, takes only the latest step due and passes over the missed ones", () => {
    // The clock was down from before the first step until 4 days after the due date.
    expect(decideDunning(schedule, due, 0, dunningStepAt(due, 4))).toEqual({
      kind: "step",
      index: 2,
      offsetDays: 3,
      dunningStep: 3,
      nextDunningAt: dunningStepAt(due, 7),
      final: false,
    });
    // …and until long after the last: the last step, final.
    expect(decideDunning(schedule, due, 1, dunningStepAt(due, 30))).toMatchObject({ index: 3, dunningStep: 4, final: true });
  });

  it("does nothing with an empty schedule", () => {
    expect(decideDunning({ steps: [], finalAction: "cancel" }, due, 0, dunningStepAt(due, 60))).toEqual({ kind: "wait", nextDunningAt: undefined });
  });
});

describe("checkDunningSchedule", () => {
  it("takes a valid schedule, the final action mark_unpaid when none is given", () => {
    expect(checkDunningSchedule({ steps: [{ offsetDays: -30 }, { offsetDays: 60 }], finalAction: "" })).toEqual({
      steps: [{ offsetDays: -30 }, { offsetDays: 60 }],
      finalAction: "mark_unpaid",
    });
    expect(checkDunningSchedule({ steps: [], finalAction: "cancel" })).toEqual({ steps: [], finalAction: "cancel" });
  });

  it.each([
    [{ steps: [{ offsetDays: -31 }, { offsetDays: 0 }], finalAction: "" }, "dunning.steps[0].offsetDays"],
    [{ steps: [{ offsetDays: 61 }], finalAction: "" }, "dunning.steps[0].offsetDays"],
    [{ steps: [{ offsetDays: 1.5 }], finalAction: "" }, "dunning.steps[0].offsetDays"],
    [{ steps: [{ offsetDays: 3 }, { offsetDays: 0 }], finalAction: "" }, "dunning.steps[1].offsetDays"],
    [{ steps: [{ offsetDays: 3 }, { offsetDays: 3 }], finalAction: "" }, "dunning.steps[1].offsetDays"],
    [{ steps: [{ offsetDays: -5 }, { offsetDays: -1 }], finalAction: "" }, "dunning.steps[1].offsetDays"],
    [{ steps: Array.from({ length: 11 }, (_, i) => ({ offsetDays: i })), finalAction: "" }, "dunning.steps"],
    [{ steps: [{ offsetDays: 0 }], finalAction: "suspend" }, "dunning.finalAction"],
  ])("refuses %j, naming %s", (input, field) => {
    expect(checkDunningSchedule(input)).toMatchObject({ field });
  });
});
