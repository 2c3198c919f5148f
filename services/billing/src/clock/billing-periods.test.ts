import { describe, expect, it } from "vitest";
import { addIntervals, firstSchedule, nextSchedule, periodOf, type Cadence } from "./billing-periods.js";

const monthly: Cadence = { interval: "monthly", intervalCount: 1 };
const iso = (date: Date) => date.toISOString();

describe("addIntervals", () => {
  it.each([
    // [anchor (UTC), cadence, k, expected (UTC)]; the anchors' Manila wall time is noted.
    ["2027-01-10T04:00:00.000Z", { interval: "weekly", intervalCount: 1 }, 1, "2027-01-17T04:00:00.000Z"],
    ["2027-01-10T04:00:00.000Z", { interval: "weekly", intervalCount: 2 }, 3, "2027-02-21T04:00:00.000Z"],
    ["2027-01-10T04:00:00.000Z", { interval: "monthly", intervalCount: 1 }, 1, "2027-02-10T04:00:00.000Z"],
    ["2027-01-10T04:00:00.000Z", { interval: "monthly", intervalCount: 3 }, 2, "2027-07-10T04:00:00.000Z"],
    ["2027-11-10T04:00:00.000Z", { interval: "monthly", intervalCount: 1 }, 2, "2028-01-10T04:00:00.000Z"],
    ["2027-03-15T04:00:00.000Z", { interval: "yearly", intervalCount: 1 }, 1, "2028-03-15T04:00:00.000Z"],
    ["2027-03-15T04:00:00.000Z", { interval: "yearly", intervalCount: 2 }, 2, "2031-03-15T04:00:00.000Z"],
    // Feb 29 (Manila) + 1 year → Feb 28; + 4 years → Feb 29 again.
    ["2028-02-29T04:00:00.000Z", { interval: "yearly", intervalCount: 1 }, 1, "2029-02-28T04:00:00.000Z"],
    ["2028-02-29T04:00:00.000Z", { interval: "yearly", intervalCount: 1 }, 4, "2032-02-29T04:00:00.000Z"],
  ] as const)("%s + %j × %i = %s", (anchor, cadence, k, expected) => {
    expect(iso(addIntervals(new Date(anchor), cadence, k))).toBe(expected);
  });

  it("clamps the day to the month's last day without drifting later periods (Jan 31 → Feb 28 → Mar 31)", () => {
    const anchor = new Date("2027-01-31T04:00:00.000Z"); // Jan 31, 12:00 Manila
    expect([1, 2, 3, 4].map((k) => iso(addIntervals(anchor, monthly, k)))).toEqual([
      "2027-02-28T04:00:00.000Z",
      "2027-03-31T04:00:00.000Z",
      "2027-04-30T04:00:00.000Z",
      "2027-05-31T04:00:00.000Z",
    ]);
  });

  it("clamps to Feb 29 in a leap year", () => {
    expect(iso(addIntervals(new Date("2028-01-31T04:00:00.000Z"), monthly, 1))).toBe("2028-02-29T04:00:00.000Z");
  });

  it("counts calendar days on the Manila wall clock, not in UTC", () => {
    // 2027-01-30T16:30Z is Jan 31 00:30 in Manila: one month later is Feb 28 00:30 Manila.
    expect(iso(addIntervals(new Date("2027-01-30T16:30:00.000Z"), monthly, 1))).toBe("2027-02-27T16:30:00.000Z");
    // 2027-02-28T16:00Z is Mar 1 00:00 in Manila: one month later is Apr 1 00:00 Manila.
    expect(iso(addIntervals(new Date("2027-02-28T16:00:00.000Z"), monthly, 1))).toBe("2027-03-31T16:00:00.000Z");
    // 2027-12-31T16:00Z is already Jan 1 2028 in Manila: one year later is Jan 1 2029 Manila.
    expect(iso(addIntervals(new Date("2027-12-31T16:00:00.000Z"), { interval: "yearly", intervalCount: 1 }, 1))).toBe(
      "2028-12-31T16:00:00.000Z",
    );
  });
});

describe("periodOf / firstSchedule / nextSchedule", () => {
  it("starts period 1 at creation and ends it one interval later", () => {
    const start = new Date("2027-01-31T04:00:00.000Z");
    const first = firstSchedule(monthly, start);
    expect(first.anchorPeriod).toBe(1);
    expect(iso(first.period.start)).toBe(iso(start));
    expect(iso(first.period.end)).toBe("2027-02-28T04:00:00.000Z");
  });

  it("keeps the anchor when the next period starts on schedule", () => {
    const schedule = { ...monthly, billingAnchor: new Date("2027-01-31T04:00:00.000Z"), anchorPeriod: 1 };
    const second = nextSchedule(schedule, 1, periodOf(schedule, 1).end);
    expect(second.billingAnchor).toEqual(schedule.billingAnchor);
    expect([iso(second.period.start), iso(second.period.end)]).toEqual(["2027-02-28T04:00:00.000Z", "2027-03-31T04:00:00.000Z"]);
    expect(second.period.periodNumber).toBe(2);
  });

  it("re-anchors when the next period starts off schedule", () => {
    const schedule = { ...monthly, billingAnchor: new Date("2027-01-31T04:00:00.000Z"), anchorPeriod: 1 };
    const early = new Date("2027-02-10T04:00:00.000Z");
    const next = nextSchedule(schedule, 1, early);
    expect(next).toMatchObject({ billingAnchor: early, anchorPeriod: 2 });
    expect([iso(next.period.start), iso(next.period.end)]).toEqual(["2027-02-10T04:00:00.000Z", "2027-03-10T04:00:00.000Z"]);
    expect(iso(periodOf({ ...monthly, ...next }, 3).end)).toBe("2027-04-10T04:00:00.000Z");
  });
});
