import { describe, expect, it } from "vitest";
import { assertPaymongoAmount, checkoutMethodsAccepting, paymongoAmountProblems } from "./paymongo-amount-limits.js";

describe("paymongoAmountProblems", () => {
  it.each([
    ["gcash", 10_000_000, 10_000_001],
    ["paymaya", 10_000_000, 10_000_001],
    ["grab_pay", 10_000_000, 10_000_001],
    ["shopeepay", 10_000_000, 10_000_001],
    ["dob_ubp", 10_000_000, 10_000_001],
    ["dob_bpi", 5_000_000, 5_000_001],
    ["otc", 2_000_000, 2_000_001],
    ["billease", 4_000_000, 4_000_001],
    ["qrph", 5_000_000, 5_000_001],
    ["card", 999_999_999, 1_000_000_000],
  ])("takes %s up to %i and refuses %i", (method, largest, over) => {
    expect(paymongoAmountProblems("payment_intent", method, largest)).toEqual([]);
    expect(paymongoAmountProblems("payment_intent", method, over)).toEqual([expect.stringMatching(new RegExp(`^amount\\.amountMinor: ${over} is above PayMongo's limit for ${method} `))]);
  });

  it("keeps ₱20 as every method's minimum, ₱100 for BillEase", () => {
    expect(paymongoAmountProblems("payment_intent", "gcash", 2_000)).toEqual([]);
    expect(paymongoAmountProblems("payment_intent", "gcash", 1_999)).toEqual(["amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for gcash"]);
    expect(paymongoAmountProblems("payment_intent", "brankas", 1_999)).toHaveLength(1);
    expect(paymongoAmountProblems("payment_intent", "billease", 9_999)).toEqual(["amount.amountMinor: 9999 is below PayMongo's minimum of 10000 centavos for billease"]);
  });

  it("reads a payment intent's dob by its bank: BPI's ₱50,000 unless the bank is UBP", () => {
    expect(paymongoAmountProblems("payment_intent", "dob", 6_000_000, { bankCode: "bpi" })).toHaveLength(1);
    expect(paymongoAmountProblems("payment_intent", "dob", 6_000_000, { bankCode: "ubp" })).toEqual([]);
    expect(paymongoAmountProblems("checkout_session", "dob", 6_000_000)).toHaveLength(1);
  });

  it("holds links to the Links API's ₱100 minimum whatever the method", () => {
    expect(paymongoAmountProblems("link", "gcash", 9_999)).toEqual(["amount.amountMinor: 9999 is below PayMongo's minimum of 10000 centavos for payment links"]);
    expect(paymongoAmountProblems("link", "gcash", 20_000_000)).toEqual([]);
  });
});

describe("assertPaymongoAmount and checkoutMethodsAccepting", () => {
  it("throw AMOUNT_OUT_OF_RANGE (422) with the problems as details", () => {
    expect(() => assertPaymongoAmount("payment_intent", "qrph", 1_000)).toThrow(
      expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE", httpStatus: 422, details: ["amount.amountMinor: 1000 is below PayMongo's minimum of 2000 centavos for qrph"] }),
    );
    expect(() => checkoutMethodsAccepting(["qrph", "gcash"], 20_000_000)).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE", details: [expect.stringMatching(/qrph/), expect.stringMatching(/gcash/)] }));
  });

  it("keep the checkout methods that take the amount, in their order", () => {
    expect(checkoutMethodsAccepting(["qrph", "gcash", "card", "billease"], 6_000_000)).toEqual(["gcash", "card"]);
    expect(checkoutMethodsAccepting(["qrph", "gcash"], 5_000)).toEqual(["qrph", "gcash"]);
  });
});
