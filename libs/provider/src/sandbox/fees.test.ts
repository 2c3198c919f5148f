import { describe, expect, it } from "vitest";
import { PAYMENT_METHOD_NAMES } from "../payment-methods.js";
import { createSandboxProvider } from "./sandbox-provider.js";
import { SANDBOX_FEES, sandboxFeeMinor } from "./fees.js";

describe("the sandbox's fee table", () => {
  it("has a rate for every method", () => {
    expect(Object.keys(SANDBOX_FEES).sort()).toEqual([...PAYMENT_METHOD_NAMES].sort());
  });

  it("charges the documented rates on ₱1,000.00", () => {
    expect(sandboxFeeMinor(100_000, "card")).toBe(3_500 + 1_500);
    expect(sandboxFeeMinor(100_000, "gcash")).toBe(2_500);
    expect(sandboxFeeMinor(100_000, "maya")).toBe(2_000);
    expect(sandboxFeeMinor(100_000, "grabpay")).toBe(2_200);
    expect(sandboxFeeMinor(100_000, "shopeepay")).toBe(2_000);
    expect(sandboxFeeMinor(100_000, "qrph")).toBe(1_500);
    expect(sandboxFeeMinor(100_000, "online_banking")).toBe(1_500); // 0.8% is ₱8: the ₱15 minimum
    expect(sandboxFeeMinor(1_000_000, "online_banking")).toBe(8_000);
  });

  it("rounds the percentage half to even, to whole centavos", () => {
    // 2.5% of 10_100 is 252.5 → 252 (even); of 10_300, 257.5 → 258.
    expect(sandboxFeeMinor(10_100, "gcash")).toBe(252);
    expect(sandboxFeeMinor(10_300, "gcash")).toBe(258);
    // 2% of 10_025 is 200.5 → 200; 2.2% of 10_025 is 220.55 → 221.
    expect(sandboxFeeMinor(10_025, "maya")).toBe(200);
    expect(sandboxFeeMinor(10_025, "grabpay")).toBe(221);
  });

  it("never keeps more than the payment", () => {
    expect(sandboxFeeMinor(1_000, "card")).toBe(1_000);
    expect(sandboxFeeMinor(100, "online_banking")).toBe(100);
  });

  it("is what the sandbox provider reports of a payment its payer made", () => {
    const sandbox = createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 });
    expect(sandbox.payerPaymentFee?.({ amountMinor: 150_000, currency: "PHP" }, "qrph")).toBe(2_250);
  });
});
