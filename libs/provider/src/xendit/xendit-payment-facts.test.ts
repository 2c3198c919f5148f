import { describe, expect, it } from "vitest";
import { xenditPaymentMethodOf } from "./xendit-channels.js";
import { xenditRefundOf } from "./xendit-resources.js";

describe("Xendit's fees and method names", () => {
  it("reads a refund's refund_fee_amount (pesos) as its fee in centavos", () => {
    expect(xenditRefundOf({ id: "rfd-1", status: "SUCCEEDED", amount: 500, refund_fee_amount: 12.5 }, "retrieveRefund").feeMinor).toBe(1_250);
    expect(xenditRefundOf({ id: "rfd-2", status: "SUCCEEDED", amount: 500, refund_fee_amount: 0 }, "retrieveRefund").feeMinor).toBe(0);
  });

  it("leaves a refund fee that is absent or not exact unreported", () => {
    expect(xenditRefundOf({ id: "rfd-3", status: "SUCCEEDED", amount: 500 }, "retrieveRefund")).not.toHaveProperty("feeMinor");
    expect(xenditRefundOf({ id: "rfd-4", status: "SUCCEEDED", amount: 500, refund_fee_amount: 0.001 }, "retrieveRefund")).not.toHaveProperty("feeMinor");
  });

  it("names a payment's channel in Bayad's names", () => {
    expect(xenditPaymentMethodOf("GCASH")).toBe("gcash");
    expect(xenditPaymentMethodOf("PAYMAYA")).toBe("maya");
    expect(xenditPaymentMethodOf("GRABPAY")).toBe("grabpay");
    expect(xenditPaymentMethodOf("SHOPEEPAY")).toBe("shopeepay");
    expect(xenditPaymentMethodOf("QRPH")).toBe("qrph");
    expect(xenditPaymentMethodOf("BPI_DIRECT_DEBIT")).toBeUndefined();
    expect(xenditPaymentMethodOf(undefined)).toBeUndefined();
  });
});
