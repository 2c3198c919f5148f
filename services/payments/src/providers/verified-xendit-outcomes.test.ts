import { describe, expect, it } from "vitest";
import type { XenditPaymentRequest, XenditRefund, XenditSession } from "@bayad/provider";
import { verifiedXenditCheckoutOutcome, verifiedXenditPaymentIntentOutcome, verifiedXenditRefundOutcome } from "./verified-xendit-outcomes.js";

const checkout = { _id: "chk_1", amountMinor: 250_50, currency: "PHP" as const };
const session = (overrides: Partial<XenditSession> = {}): XenditSession => ({
  id: "ps-1",
  state: "completed",
  referenceId: "chk_1",
  amountMinor: 250_50,
  currency: "PHP",
  paymentRequestId: "pr-1",
  ...overrides,
});
const request = (overrides: Partial<XenditPaymentRequest> = {}): XenditPaymentRequest => ({
  id: "pr-1",
  state: "succeeded",
  referenceId: "chk_1",
  channelCode: "PAYMAYA",
  amountMinor: 250_50,
  currency: "PHP",
  actions: [],
  ...overrides,
});

describe("verifiedXenditCheckoutOutcome", () => {
  it("pays the checkout only by a completed session whose payment request succeeded for its reference, amount and currency", () => {
    expect(verifiedXenditCheckoutOutcome(checkout, session(), request())).toEqual({ kind: "settled", outcome: { status: "paid", providerPaymentId: "pr-1", method: "maya", paymentMethod: "maya" } });
    expect(verifiedXenditCheckoutOutcome(checkout, session(), undefined).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session(), request({ id: "pr-other" })).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session(), request({ state: "failed" })).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session(), request({ amountMinor: 1_00 })).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session(), request({ referenceId: "chk_2" })).kind).toBe("disagrees");
  });

  it("disagrees with a session of another checkout, amount or currency, and reads an open session as open, an expired one as expired", () => {
    expect(verifiedXenditCheckoutOutcome(checkout, session({ referenceId: "chk_2" }), request()).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session({ amountMinor: undefined }), request()).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session({ currency: undefined }), request()).kind).toBe("disagrees");
    expect(verifiedXenditCheckoutOutcome(checkout, session({ state: "open" }), undefined)).toEqual({ kind: "open" });
    expect(verifiedXenditCheckoutOutcome(checkout, session({ state: "unknown" }), undefined)).toEqual({ kind: "open" });
    expect(verifiedXenditCheckoutOutcome(checkout, session({ state: "expired" }), undefined)).toEqual({ kind: "settled", outcome: { status: "expired" } });
  });
});

describe("verifiedXenditPaymentIntentOutcome", () => {
  const intent = { _id: "chk_1", amountMinor: 250_50, currency: "PHP" as const, status: "awaiting_next_action" as const };
  it("reads the payment request's state as the intent's, only for the intent's reference, amount and currency", () => {
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ channelCode: "QRPH" }))).toEqual({ kind: "settled", outcome: { status: "succeeded", providerPaymentId: "pr-1", method: "qrph", paymentMethod: "qrph" } });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ state: "processing" }))).toEqual({ kind: "settled", outcome: { status: "processing" } });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ state: "failed" }))).toEqual({ kind: "settled", outcome: { status: "failed" } });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ state: "cancelled" }))).toEqual({ kind: "settled", outcome: { status: "failed" } });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ state: "expired" }))).toEqual({ kind: "settled", outcome: { status: "expired" } });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ state: "awaiting_payer" }))).toEqual({ kind: "open" });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ state: "unknown" }))).toEqual({ kind: "open" });
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ amountMinor: 250_51 })).kind).toBe("disagrees");
    expect(verifiedXenditPaymentIntentOutcome(intent, request({ referenceId: undefined })).kind).toBe("disagrees");
  });
});

describe("verifiedXenditRefundOutcome", () => {
  const refundRecord = { _id: "re_1", amountMinor: 100_00, currency: "PHP" as const, providerReference: "rfd-1", providerPaymentId: "pr-1" };
  const refund = (overrides: Partial<XenditRefund> = {}): XenditRefund => ({
    id: "rfd-1",
    state: "succeeded",
    referenceId: "re_1",
    paymentRequestId: "pr-1",
    amountMinor: 100_00,
    currency: "PHP",
    ...overrides,
  });
  it("settles Bayad's refund by Xendit's, of the same payment request and money; anything else disagrees", () => {
    expect(verifiedXenditRefundOutcome(refundRecord, refund())).toEqual({ kind: "settled", outcome: { status: "succeeded", providerReference: "rfd-1" } });
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ state: "failed" }))).toEqual({ kind: "settled", outcome: { status: "failed", providerReference: "rfd-1" } });
    // Xendit's refund_fee_amount, once reported, comes with the outcome.
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ feeMinor: 12_50 }))).toEqual({ kind: "settled", outcome: { status: "succeeded", providerReference: "rfd-1", fee: 12_50 } });
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ state: "pending" }))).toEqual({ kind: "open" });
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ id: "rfd-2" })).kind).toBe("disagrees");
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ referenceId: "re_2" })).kind).toBe("disagrees");
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ paymentRequestId: "pr-2" })).kind).toBe("disagrees");
    expect(verifiedXenditRefundOutcome(refundRecord, refund({ amountMinor: 99_99 })).kind).toBe("disagrees");
  });
});
