import { describe, expect, it } from "vitest";
import { recordOf } from "../test-support/records.js";
import { contribution, manilaDay } from "./contribution.js";
import { zeroCounters } from "./totals-collection.js";

const created = new Date("2026-03-10T03:00:00.000Z");
const counted = (overrides: Parameters<typeof recordOf>[0]) => contribution(recordOf({ createdAt: created, ...overrides }));

describe("contribution", () => {
  it.each([
    ["checkout", "paid", "paid"],
    ["payment_intent", "succeeded", "paid"],
    ["payment_link", "paid", "paid"],
    ["invoice", "paid", "paid"],
    ["checkout", "failed", "failed"],
    ["payment_intent", "failed", "failed"],
    ["refund", "succeeded", "refunded"],
  ] as const)("counts a %s that is %s as %s", (type, status, outcome) => {
    const result = counted({ _id: "r", type, status, amount: type === "refund" ? -300_00 : 300_00, fee: 9_00 });
    const expected = zeroCounters();
    if (outcome === "paid") Object.assign(expected, { paidCount: 1, paidMinor: 300_00, feeMinor: 9_00 });
    if (outcome === "failed") Object.assign(expected, { failedCount: 1, failedMinor: 300_00 });
    if (outcome === "refunded") Object.assign(expected, { refundedCount: 1, refundedMinor: 300_00, feeMinor: 9_00 });
    expect(result?.counters).toEqual(expected);
  });

  it.each([
    ["checkout", "pending"],
    ["checkout", "cancelled"],
    ["checkout", "expired"],
    ["payment_intent", "processing"],
    ["payment_intent", "paid"],
    ["payment_link", "active"],
    ["invoice", "open"],
    ["invoice", "void"],
    ["refund", "pending"],
    ["refund", "failed"],
    ["subscription", "active"],
    ["checkout", null],
  ] as const)("counts nothing for a %s that is %s", (type, status) => {
    expect(counted({ _id: "r", type, status, amount: 100_00, fee: 1_00 })).toBeNull();
  });

  it("counts a paid payment without a reported fee as unreported, its fee as 0", () => {
    expect(counted({ _id: "r", status: "paid", amount: 500_00, fee: null })?.counters).toEqual({
      ...zeroCounters(),
      paidCount: 1,
      paidMinor: 500_00,
      unreportedFeeCount: 1,
    });
  });

  it("counts a refund without a fee with no fee and as nothing unreported", () => {
    expect(counted({ _id: "r", type: "refund", status: "succeeded", amount: -120_00 })?.counters).toEqual({
      ...zeroCounters(),
      refundedCount: 1,
      refundedMinor: 120_00,
    });
  });

  it("reads the amount from its text on records projected before the number existed", () => {
    expect(counted({ _id: "r", status: "paid", amountMinor: "777", fee: 0 })?.counters).toMatchObject({ paidMinor: 777, feeMinor: 0, unreportedFeeCount: 0 });
  });

  it("keys a record by project, environment, Philippine day, method and account (null when unknown)", () => {
    expect(counted({ _id: "r", environment: "live", status: "paid", paymentMethod: "gcash", providerAccountId: "pa_1" })?.key).toEqual({
      projectId: "prj_records",
      environment: "live",
      day: "2026-03-10",
      paymentMethod: "gcash",
      providerAccountId: "pa_1",
    });
    expect(counted({ _id: "r", status: "paid" })?.key).toMatchObject({ paymentMethod: null, providerAccountId: null });
  });

  it("takes the Philippine day of createdAt (UTC+8), not the UTC one", () => {
    expect(manilaDay(new Date("2026-03-09T15:59:59.999Z"))).toBe("2026-03-09");
    expect(manilaDay(new Date("2026-03-09T16:00:00.000Z"))).toBe("2026-03-10");
    expect(manilaDay(new Date("2026-12-31T16:00:00.000Z"))).toBe("2027-01-01");
  });
});
