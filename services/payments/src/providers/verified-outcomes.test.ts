import { describe, expect, it } from "vitest";
import type { PaymongoCheckoutSessionState, PaymongoPaymentIntentState, PaymongoPaymentState, PaymongoRefundState } from "@bayad/provider";
import { verifiedCheckoutOutcome, verifiedPaymentIntentOutcome, verifiedRefundOutcome } from "./verified-outcomes.js";

const checkout = { _id: "chk_1", amountMinor: 250_00, currency: "PHP" as const };
const payment = (overrides: Partial<PaymongoPaymentState> = {}): PaymongoPaymentState => ({ id: "pay_1", status: "paid", amount: 250_00, currency: "PHP", ...overrides });
const session = (overrides: Partial<PaymongoCheckoutSessionState> = {}): PaymongoCheckoutSessionState => ({
  id: "cs_1",
  // A paid session still says active ([O]).
  status: "active",
  payments: [payment()],
  metadata: { bayad_resource_id: "chk_1" },
  ...overrides,
});

describe("verifiedCheckoutOutcome", () => {
  it("pays the checkout by the session's paid payment for its amount, whatever the session's own status says", () => {
    expect(verifiedCheckoutOutcome(checkout, session())).toEqual({ kind: "settled", outcome: { status: "paid", providerPaymentId: "pay_1" } });
  });

  it("finds the paid payment among failed attempts, never taking the first payment for it", () => {
    const payments = [payment({ id: "pay_failed", status: "failed" }), payment({ id: "pay_ok" })];
    expect(verifiedCheckoutOutcome(checkout, session({ payments }))).toEqual({ kind: "settled", outcome: { status: "paid", providerPaymentId: "pay_ok" } });
    expect(verifiedCheckoutOutcome(checkout, session({ payments: [payment({ status: "pending" })] }))).toEqual({ kind: "open" });
  });

  it("disagrees with a session of another Bayad checkout, or paid for another amount or currency", () => {
    expect(verifiedCheckoutOutcome(checkout, session({ metadata: { bayad_resource_id: "chk_2" } })).kind).toBe("disagrees");
    expect(verifiedCheckoutOutcome(checkout, session({ metadata: {} })).kind).toBe("disagrees");
    expect(verifiedCheckoutOutcome(checkout, session({ payments: [payment({ amount: 1_00 })] })).kind).toBe("disagrees");
    expect(verifiedCheckoutOutcome(checkout, session({ payments: [payment({ currency: "USD" })] })).kind).toBe("disagrees");
  });

  it("expires a checkout whose session expired unpaid, and leaves an unpaid active one open", () => {
    expect(verifiedCheckoutOutcome(checkout, session({ status: "expired", payments: [] }))).toEqual({ kind: "settled", outcome: { status: "expired" } });
    expect(verifiedCheckoutOutcome(checkout, session({ payments: [] }))).toEqual({ kind: "open" });
  });
});

describe("verifiedPaymentIntentOutcome", () => {
  const record = { _id: "pi_1", amountMinor: 180_00, currency: "PHP" as const, status: "awaiting_next_action" as const };
  const intent = (overrides: Partial<PaymongoPaymentIntentState> = {}): PaymongoPaymentIntentState => ({
    id: "pi_pm_1",
    status: "succeeded",
    amount: 180_00,
    currency: "PHP",
    payments: [payment({ amount: 180_00 })],
    metadata: { bayad_resource_id: "pi_1" },
    ...overrides,
  });

  it("succeeds on a succeeded intent with a paid payment of its amount", () => {
    expect(verifiedPaymentIntentOutcome(record, intent())).toEqual({ kind: "settled", outcome: { status: "succeeded", providerPaymentId: "pay_1" } });
    expect(verifiedPaymentIntentOutcome(record, intent({ payments: [] }))).toEqual({ kind: "open" });
  });

  it("disagrees with an intent of another Bayad intent, amount or currency", () => {
    expect(verifiedPaymentIntentOutcome(record, intent({ metadata: { bayad_resource_id: "pi_2" } })).kind).toBe("disagrees");
    expect(verifiedPaymentIntentOutcome(record, intent({ amount: 1_00 })).kind).toBe("disagrees");
    expect(verifiedPaymentIntentOutcome(record, intent({ currency: undefined })).kind).toBe("disagrees");
  });

  it("fails on awaiting_payment_method with a payment error; expires a QR Ph code PayMongo no longer awaits; stays open while it awaits", () => {
    const back = { status: "awaiting_payment_method", payments: [] };
    expect(verifiedPaymentIntentOutcome(record, intent({ ...back, lastPaymentError: { code: "RJCT" } }))).toEqual({ kind: "settled", outcome: { status: "failed" } });
    expect(verifiedPaymentIntentOutcome(record, intent(back))).toEqual({ kind: "settled", outcome: { status: "expired" } });
    expect(verifiedPaymentIntentOutcome({ ...record, status: "processing" }, intent(back))).toEqual({ kind: "open" });
    expect(verifiedPaymentIntentOutcome(record, intent({ status: "awaiting_next_action", payments: [] }))).toEqual({ kind: "open" });
  });
});

describe("verifiedRefundOutcome", () => {
  const record = { _id: "ref_b1", amountMinor: 100_00, currency: "PHP" as const, providerReference: "ref_pm_1", providerPaymentId: "pay_1" };
  const refund = (overrides: Partial<PaymongoRefundState> = {}): PaymongoRefundState => ({
    id: "ref_pm_1",
    status: "succeeded",
    amount: 100_00,
    metadata: { bayad_resource_id: "ref_b1" },
    paymentId: "pay_1",
    ...overrides,
  });

  it("settles a refund of the same amount of the same payment made for this Bayad refund", () => {
    expect(verifiedRefundOutcome(record, refund())).toEqual({ kind: "settled", outcome: { status: "succeeded", providerReference: "ref_pm_1" } });
    expect(verifiedRefundOutcome(record, refund({ status: "failed" }))).toEqual({ kind: "settled", outcome: { status: "failed", providerReference: "ref_pm_1" } });
    expect(verifiedRefundOutcome(record, refund({ status: "pending" }))).toEqual({ kind: "open" });
  });

  it("disagrees with another refund, amount or payment", () => {
    expect(verifiedRefundOutcome(record, refund({ metadata: { bayad_resource_id: "ref_b2" } })).kind).toBe("disagrees");
    expect(verifiedRefundOutcome(record, refund({ id: "ref_pm_2" })).kind).toBe("disagrees");
    expect(verifiedRefundOutcome(record, refund({ amount: 250_00 })).kind).toBe("disagrees");
    expect(verifiedRefundOutcome(record, refund({ paymentId: "pay_2" })).kind).toBe("disagrees");
  });
});
