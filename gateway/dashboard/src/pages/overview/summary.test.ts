import { describe, expect, it } from "vitest";
import { overviewSearchOf, overviewViewOf } from "./overview-url";
import { cardsOf, chartPoints, lastDays, periodRows, philippineDay, rangeError, type PaymentsSummary, type SummaryTotals } from "./summary";

const totals = (over: Partial<SummaryTotals> = {}): SummaryTotals => ({
  paidCount: 0,
  paidMinor: "0",
  failedCount: 0,
  failedMinor: "0",
  refundedCount: 0,
  refundedMinor: "0",
  feeMinor: "0",
  netMinor: "0",
  unreportedFeeCount: 0,
  ...over,
});

describe("the summary's totals as the overview's cards", () => {
  it("maps every total, and the success rate is paid ÷ (paid + failed)", () => {
    const cards = cardsOf(
      totals({ paidCount: 3, paidMinor: "900000", failedCount: 1, failedMinor: "5000", refundedCount: 1, refundedMinor: "10000", feeMinor: "22500", netMinor: "867500", unreportedFeeCount: 2 }),
    );
    expect(cards).toEqual({
      paid: { minor: "900000", count: 3 },
      fee: "22500",
      net: "867500",
      refunded: { minor: "10000", count: 1 },
      failed: { minor: "5000", count: 1 },
      successRate: 0.75,
      unreportedFeeCount: 2,
    });
  });

  it("has no success rate when nothing was paid or failed", () => {
    expect(cardsOf(totals({ refundedCount: 2, refundedMinor: "100" })).successRate).toBeNull();
    expect(cardsOf(totals({ failedCount: 2 })).successRate).toBe(0);
  });
});

describe("the summary's periods as the chart and the table", () => {
  const split: PaymentsSummary = {
    total: totals(),
    periods: [
      { start: "2026-11-02", end: "2026-11-02", paymentMethod: "gcash", totals: totals({ paidCount: 1, paidMinor: "9007199254740991" }) },
      { start: "2026-11-01", end: "2026-11-01", paymentMethod: null, totals: totals({ paidCount: 2, paidMinor: "300" }) },
      { start: "2026-11-02", end: "2026-11-02", paymentMethod: "card", totals: totals({ paidCount: 2, paidMinor: "10", failedCount: 2 }) },
    ],
  };

  it("adds a period's groups together for the chart, exactly, oldest first", () => {
    expect(chartPoints(split)).toEqual([
      { day: "2026-11-01", paidMinor: "300", paidCount: 2 },
      { day: "2026-11-02", paidMinor: "9007199254741001", paidCount: 3 },
    ]);
  });

  it("lists the table newest first, each group named (an unknown method as such)", () => {
    const rows = periodRows(split, "day", "payment_method");
    expect(rows.map((row) => [row.period, row.group, row.cards.paid.count, row.cards.successRate])).toEqual([
      ["2026-11-02", "Card", 2, 0.5],
      ["2026-11-02", "GCash", 1, 1],
      ["2026-11-01", "Unknown method", 2, 1],
    ]);
  });

  it("names weeks and months, and the sandbox for a provider account split", () => {
    const summary: PaymentsSummary = { total: totals(), periods: [{ start: "2026-11-01", end: "2026-11-30", providerAccountId: null, totals: totals() }] };
    expect(periodRows(summary, "month", "provider_account")[0]).toMatchObject({ period: "2026-11", group: "Sandbox" });
    expect(periodRows(summary, "week")[0]).toMatchObject({ period: "Week of 2026-11-01", group: undefined });
  });

  it("reads a period start given as an instant as its Philippine day", () => {
    const summary: PaymentsSummary = { total: totals(), periods: [{ start: "2026-10-31T16:00:00.000Z", end: "2026-11-01T16:00:00.000Z", totals: totals() }] };
    expect(chartPoints(summary)[0].day).toBe("2026-11-01");
  });
});

describe("the overview's range", () => {
  it("counts days in Philippine time (UTC+8)", () => {
    expect(philippineDay(new Date("2026-11-30T15:59:59Z"))).toBe("2026-11-30");
    expect(philippineDay(new Date("2026-11-30T16:00:00Z"))).toBe("2026-12-01");
  });

  it("defaults to the last 30 Philippine days, today included, per day, unsplit", () => {
    expect(lastDays(30, new Date("2026-03-01T20:00:00Z"))).toEqual({ from: "2026-02-01", to: "2026-03-02" });
    const view = overviewViewOf(new URLSearchParams(), new Date("2026-03-01T20:00:00Z"));
    expect(view).toEqual({ query: { from: "2026-02-01", to: "2026-03-02", granularity: "day", groupBy: undefined }, error: undefined });
  });

  it("keeps any range, granularity and split in the URL, and refuses a backwards or malformed range", () => {
    const view = overviewViewOf(new URLSearchParams("from=2024-01-01&to=2026-12-31&granularity=month&groupBy=provider_account"));
    expect(view.query).toEqual({ from: "2024-01-01", to: "2026-12-31", granularity: "month", groupBy: "provider_account" });
    expect(overviewSearchOf(view.query)).toEqual({ from: "2024-01-01", to: "2026-12-31", granularity: "month", groupBy: "provider_account" });
    expect(overviewViewOf(new URLSearchParams("granularity=year&groupBy=x")).query).toMatchObject({ granularity: "day", groupBy: undefined });
    expect(rangeError("2026-02-01", "2026-01-31")).toBe("The range ends before it starts.");
    expect(rangeError("2026-02-30", "2026-03-01")).toBe("Choose both days of the range.");
    expect(rangeError("", "2026-03-01")).toBe("Choose both days of the range.");
    expect(rangeError("2026-03-01", "2026-03-01")).toBeUndefined();
  });
});
