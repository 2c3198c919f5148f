import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { ProviderRefusedRefundError, type RefundedPayment } from "../port.js";
import { PaymongoRejectedError } from "./paymongo-errors.js";
import { paymongoRefundRefusal, paymongoRefundRefusalOf } from "./paymongo-refund-rules.js";

const now = new Date("2026-11-28T00:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

function payment(overrides: Partial<RefundedPayment> = {}): RefundedPayment {
  return {
    paymentId: "chk_test",
    amountMinor: 500_00,
    refundableMinor: 500_00,
    providerPaymentId: "pay_test",
    method: "gcash",
    paidAt: daysAgo(1),
    openRefunds: 0,
    ...overrides,
  };
}

const refused = (error: AppError | undefined) => ({ code: error?.code, details: error?.details });

describe("paymongoRefundRefusal", () => {
  it("allows a partial GCash refund within 180 days", () => {
    expect(paymongoRefundRefusal(payment({ paidAt: daysAgo(179) }), 100_00, now)).toBeUndefined();
  });

  it("refuses QR Ph and UBP payments, naming the rule", () => {
    expect(refused(paymongoRefundRefusal(payment({ method: "qrph" }), 100_00, now))).toEqual({
      code: "REFUND_NOT_ALLOWED",
      details: ["paymentId: QR Ph payments cannot be refunded at PayMongo (rule: method_not_refundable)"],
    });
    expect(paymongoRefundRefusal(payment({ method: "dob_ubp" }), 100_00, now)?.code).toBe("REFUND_NOT_ALLOWED");
  });

  it.each([
    ["card", 60],
    ["gcash", 180],
    ["grab_pay", 90],
    ["billease", 60],
    ["dob", 30],
    ["brankas_bdo", 30],
  ])("refuses a %s payment past its %i-day window, and not the day before", (method, days) => {
    const full = (paidAt: Date) => paymongoRefundRefusal(payment({ method, paidAt }), 500_00, now);
    expect(full(daysAgo(days - 1))).toBeUndefined();
    const late = full(daysAgo(days + 1));
    expect(late?.code).toBe("REFUND_WINDOW_PASSED");
    expect(late?.details?.[0]).toMatch(new RegExp(`within ${days} days .*\\(rule: refund_window_passed\\)$`));
  });

  it("gives Maya payments twelve calendar months", () => {
    expect(paymongoRefundRefusal(payment({ method: "paymaya", paidAt: new Date("2025-11-29T00:00:00Z") }), 500_00, now)).toBeUndefined();
    expect(paymongoRefundRefusal(payment({ method: "paymaya", paidAt: new Date("2025-11-27T00:00:00Z") }), 500_00, now)?.code).toBe("REFUND_WINDOW_PASSED");
  });

  it("refuses a second refund while one is pending", () => {
    expect(refused(paymongoRefundRefusal(payment({ openRefunds: 1 }), 100_00, now))).toEqual({
      code: "REFUND_IN_PROGRESS",
      details: ["paymentId: a refund of this payment is still pending, and PayMongo takes one refund of a payment at a time (rule: refund_in_progress)"],
    });
  });

  it("refuses less than 100 centavos", () => {
    expect(paymongoRefundRefusal(payment(), 100, now)).toBeUndefined();
    expect(refused(paymongoRefundRefusal(payment(), 99, now))).toEqual({
      code: "REFUND_NOT_ALLOWED",
      details: ["amount.amountMinor: PayMongo refunds at least 100 centavos (rule: below_minimum)"],
    });
  });

  it("refuses partial GrabPay and Maya refunds, and a full one after an earlier partial", () => {
    for (const method of ["grab_pay", "paymaya"]) {
      expect(paymongoRefundRefusal(payment({ method }), 500_00, now)).toBeUndefined();
      expect(paymongoRefundRefusal(payment({ method }), 200_00, now)?.details?.[0]).toMatch(/only in full \(50000 centavos\) \(rule: full_refund_only\)$/);
      expect(paymongoRefundRefusal(payment({ method, refundableMinor: 300_00 }), 300_00, now)?.code).toBe("REFUND_NOT_ALLOWED");
    }
  });

  it("refuses a payment whose PayMongo id is not known, and leaves unknown methods and times to PayMongo", () => {
    expect(paymongoRefundRefusal(payment({ providerPaymentId: undefined }), 100_00, now)?.details?.[0]).toMatch(/\(rule: provider_payment_unknown\)$/);
    expect(paymongoRefundRefusal(payment({ method: undefined, paidAt: daysAgo(1_000) }), 100_00, now)).toBeUndefined();
    expect(paymongoRefundRefusal(payment({ method: "shopeepay", paidAt: daysAgo(1_000) }), 100_00, now)).toBeUndefined();
    expect(paymongoRefundRefusal(payment({ method: "card", paidAt: undefined }), 100_00, now)).toBeUndefined();
  });
});

describe("paymongoRefundRefusalOf", () => {
  const rejected = (status: number, ...codes: string[]) =>
    new PaymongoRejectedError("createRefund", status, codes.map((code) => ({ code, detail: `said ${code}`, field: "payment_id" })));

  it("answers PayMongo's refusal with the code Bayad's own rule uses and PayMongo's code in details", () => {
    const pending = paymongoRefundRefusalOf(rejected(400, "resource_pending_state"));
    expect(pending).toBeInstanceOf(ProviderRefusedRefundError);
    expect(pending?.code).toBe("REFUND_IN_PROGRESS");
    expect(pending?.details).toEqual(["provider: resource_pending_state", "payment_id: said resource_pending_state (resource_pending_state)"]);
    expect(paymongoRefundRefusalOf(rejected(400, "resource_processing_state"))?.code).toBe("REFUND_IN_PROGRESS");
    expect(paymongoRefundRefusalOf(rejected(400, "allowed_date_exceeded"))?.code).toBe("REFUND_WINDOW_PASSED");
    for (const code of ["parameter_above_maximum", "available_balance_insufficient", "resource_failed_state", "payment_method_not_allowed", "parameter_below_minimum"]) {
      const refusal = paymongoRefundRefusalOf(rejected(400, code));
      expect(refusal?.code).toBe("REFUND_NOT_ALLOWED");
      expect(refusal?.details?.[0]).toBe(`provider: ${code}`);
    }
  });

  it("does not take a concurrent duplicate or a rate limit for a refusal", () => {
    expect(paymongoRefundRefusalOf(rejected(409, "idempotency_in_progress"))).toBeUndefined();
    expect(paymongoRefundRefusalOf(rejected(429, "too_many_requests"))).toBeUndefined();
  });
});
