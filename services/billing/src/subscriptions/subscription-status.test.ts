import { describe, expect, it } from "vitest";
import { subscriptionStates } from "./subscription.js";
import { statusFollowingInvoices } from "./subscription-status.js";

describe("statusFollowingInvoices", () => {
  it.each([
    [false, [], "pending"],
    [false, ["draft"], "pending"],
    [false, ["open"], "pending"],
    [false, ["void", "open"], "pending"],
    [false, ["paid"], "active"],
    [false, ["paid", "open"], "active"],
    [false, ["paid", "draft"], "active"],
    [false, ["open", "past_due"], "past_due"],
    [false, ["paid", "past_due", "open"], "past_due"],
    [false, ["past_due", "paid", "paid"], "past_due"],
    [true, ["paid", "past_due"], "cancelled"],
    [true, [], "cancelled"],
  ] as const)("ended=%s, invoices %j → %s", (ended, invoices, expected) => {
    expect(statusFollowingInvoices({ ended, unpaid: false }, invoices)).toBe(expected);
  });

  it.each([
    [["past_due"], "unpaid"],
    [["paid", "past_due", "open"], "unpaid"],
    // The overdue invoice paid: active again, whatever else is open.
    [["paid", "open"], "active"],
    [["paid", "paid"], "active"],
  ] as const)("marked unpaid, invoices %j → %s", (invoices, expected) => {
    expect(statusFollowingInvoices({ ended: false, unpaid: true }, invoices)).toBe(expected);
    expect(statusFollowingInvoices({ ended: true, unpaid: true }, invoices)).toBe("cancelled");
  });
});

describe("the subscription state table", () => {
  it("allows exactly the moves that following the invoices can make", () => {
    expect(subscriptionStates.next("pending", "activate")).toBe("active");
    expect(subscriptionStates.next("past_due", "activate")).toBe("active");
    expect(subscriptionStates.next("pending", "fall_behind")).toBe("past_due");
    expect(subscriptionStates.next("active", "fall_behind")).toBe("past_due");
    expect(subscriptionStates.next("unpaid", "activate")).toBe("active");
    for (const from of ["pending", "active", "past_due"] as const) {
      expect(subscriptionStates.next(from, "mark_unpaid")).toBe("unpaid");
    }
    for (const from of ["pending", "active", "past_due", "unpaid"] as const) {
      expect(subscriptionStates.next(from, "end")).toBe("cancelled");
    }
    expect(() => subscriptionStates.next("unpaid", "fall_behind")).toThrow(expect.objectContaining({ code: "INVALID_STATE_TRANSITION" }));
    expect(() => subscriptionStates.next("cancelled", "activate")).toThrow(expect.objectContaining({ code: "INVALID_STATE_TRANSITION" }));
    // Only a trial's end leads to pending, and nothing leads back to trialing.
    expect(Object.values(subscriptionStates.table).filter((move) => move.to === "pending").map((move) => move.from)).toEqual([["trialing"]]);
    expect(Object.values(subscriptionStates.table).map((move) => move.to)).not.toContain("trialing");
    expect(subscriptionStates.next("trialing", "end")).toBe("cancelled");
    expect(() => subscriptionStates.next("trialing", "activate")).toThrow(expect.objectContaining({ code: "INVALID_STATE_TRANSITION" }));
  });
});
