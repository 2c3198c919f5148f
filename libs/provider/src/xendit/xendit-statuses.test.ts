import { describe, expect, it } from "vitest";
import {
  xenditFailureKind,
  xenditInvoiceState,
  xenditPaymentRequestState,
  xenditPaymentState,
  xenditRefundState,
  xenditSessionState,
} from "./xendit-statuses.js";

// Words that are statuses somewhere else (v2, another resource, another spelling) or nowhere.
const FOREIGN = ["PENDING_", "VOIDED", "UNKNOWN", "AWAITING_CAPTURE", "succeeded", "Paid", "PAID ", "", "toString", "__proto__", "constructor"];

describe("xenditPaymentRequestState", () => {
  it("reads each documented v3 status as the payment intent state it means", () => {
    expect(xenditPaymentRequestState("ACCEPTING_PAYMENTS")).toBe("awaiting_payer");
    expect(xenditPaymentRequestState("REQUIRES_ACTION")).toBe("awaiting_payer");
    expect(xenditPaymentRequestState("AUTHORIZED")).toBe("processing");
    expect(xenditPaymentRequestState("SUCCEEDED")).toBe("succeeded");
    expect(xenditPaymentRequestState("FAILED")).toBe("failed");
    expect(xenditPaymentRequestState("EXPIRED")).toBe("expired");
    expect(xenditPaymentRequestState("CANCELED")).toBe("cancelled");
  });

  it("reads v2-only statuses, other spellings and non-strings as unknown, never as succeeded", () => {
    for (const status of [...FOREIGN, "PENDING", "CANCELLED", "PAID", "SETTLED", "COMPLETED", null, undefined, 1, {}]) {
      expect(xenditPaymentRequestState(status)).toBe("unknown");
    }
  });
});

describe("xenditPaymentState", () => {
  it("reads a payment's statuses as paid only when it SUCCEEDED", () => {
    expect(xenditPaymentState("PENDING")).toBe("pending");
    expect(xenditPaymentState("AUTHORIZED")).toBe("pending");
    expect(xenditPaymentState("SUCCEEDED")).toBe("paid");
    expect(xenditPaymentState("FAILED")).toBe("failed");
    expect(xenditPaymentState("EXPIRED")).toBe("expired");
    expect(xenditPaymentState("CANCELED")).toBe("cancelled");
    for (const status of [...FOREIGN, "PAID", "CAPTURED", "CANCELLED", 7]) expect(xenditPaymentState(status)).toBe("unknown");
  });
});

describe("xenditSessionState", () => {
  it("reads a completed session as completed (its payment decides), not as paid", () => {
    expect(xenditSessionState("ACTIVE")).toBe("open");
    expect(xenditSessionState("COMPLETED")).toBe("completed");
    expect(xenditSessionState("EXPIRED")).toBe("expired");
    expect(xenditSessionState("CANCELED")).toBe("cancelled");
    for (const status of [...FOREIGN, "PAID", "SUCCEEDED"]) expect(xenditSessionState(status)).toBe("unknown");
  });
});

describe("xenditInvoiceState", () => {
  it("reads PAID and SETTLED as paid and nothing else", () => {
    expect(xenditInvoiceState("PENDING")).toBe("open");
    expect(xenditInvoiceState("PAID")).toBe("paid");
    expect(xenditInvoiceState("SETTLED")).toBe("paid");
    expect(xenditInvoiceState("EXPIRED")).toBe("expired");
    for (const status of [...FOREIGN, "SUCCEEDED", "COMPLETED", "paid"]) expect(xenditInvoiceState(status)).toBe("unknown");
  });
});

describe("xenditRefundState", () => {
  it("reads a cancelled refund as failed (no money went back) and the payments' spelling as unknown", () => {
    expect(xenditRefundState("PENDING")).toBe("pending");
    expect(xenditRefundState("SUCCEEDED")).toBe("succeeded");
    expect(xenditRefundState("FAILED")).toBe("failed");
    expect(xenditRefundState("CANCELLED")).toBe("failed");
    for (const status of [...FOREIGN, "CANCELED", "REFUNDED"]) expect(xenditRefundState(status)).toBe("unknown");
  });
});

describe("xenditFailureKind", () => {
  it("tells the payer's declines from the channel's and the account's troubles", () => {
    expect(xenditFailureKind("USER_DECLINED_PAYMENT")).toBe("payer_declined");
    expect(xenditFailureKind("INSUFFICIENT_BALANCE")).toBe("payer_declined");
    expect(xenditFailureKind("CARD_DECLINED")).toBe("payer_declined");
    expect(xenditFailureKind("DECLINED_BY_ISSUER")).toBe("payer_declined");
    expect(xenditFailureKind("USER_DID_NOT_AUTHORIZE")).toBe("payer_did_not_complete");
    expect(xenditFailureKind("PAYMENT_REQUEST_EXPIRED")).toBe("payer_did_not_complete");
    expect(xenditFailureKind("CHANNEL_UNAVAILABLE")).toBe("channel");
    expect(xenditFailureKind("TIMEOUT_ERROR")).toBe("channel");
    expect(xenditFailureKind("ACCOUNT_ACCESS_BLOCKED")).toBe("account");
    expect(xenditFailureKind("PAYMENT_AMOUNT_LIMITS_EXCEEDED")).toBe("amount");
    for (const code of [...FOREIGN, "REFUND_FAILED", "SOMETHING_NEW", undefined]) expect(xenditFailureKind(code)).toBe("unknown");
  });
});
