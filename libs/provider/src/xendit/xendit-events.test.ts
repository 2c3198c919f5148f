import { describe, expect, it } from "vitest";
import { parseXenditEvent, XENDIT_EVENTS } from "./xendit-events.js";

// Shapes as xendit.md §3, §5 and §6 give them [O]: a v3 envelope around a Payment, a Refund
// (the doc example nesting it once more), a Session, and an invoice's flat callback.
const envelope = (event: string, data: Record<string, unknown>) =>
  JSON.stringify({ event, business_id: "5f27a14a9bf05c73dd040bc8", created: "2026-11-27T08:00:00.000Z", data });

const payment = {
  type: "SINGLE_PAYMENT",
  payment_id: "py-1402feb0-bb79-47ae-9d1e-e69394d3949c",
  payment_request_id: "pr-5bc28c77-26d4-4b6a-a8ef-7bd2ac6a0a69",
  reference_id: "pi_01JDX4",
  status: "SUCCEEDED",
  request_amount: 1500,
  currency: "PHP",
  channel_code: "GCASH",
  captures: [{ capture_id: "cap-1", capture_amount: 1500 }],
};
const refund = {
  id: "rfd-6f4a377d-a201-437f-9119-f8b00cbbe857",
  payment_request_id: "pr-5bc28c77-26d4-4b6a-a8ef-7bd2ac6a0a69",
  reference_id: "rf_01JDX5",
  status: "SUCCEEDED",
  amount: 500,
  currency: "PHP",
};
const invoice = {
  id: "579c8d61f23fa4ca35e52da4",
  external_id: "inv_01JDX6",
  user_id: "5781d19b2e2385880609791c",
  status: "PAID",
  amount: 50000,
  paid_amount: 50000,
  payment_id: "py-9c3a",
  currency: "PHP",
};

describe("parseXenditEvent", () => {
  it("reads payment.capture and payment.succeeded alike: the payment to read back, with its request and reference", () => {
    for (const event of ["payment.capture", "payment.succeeded"]) {
      expect(parseXenditEvent(envelope(event, payment))).toEqual({
        event,
        businessId: "5f27a14a9bf05c73dd040bc8",
        subject: { resource: "payment", id: payment.payment_id, paymentRequestId: payment.payment_request_id, referenceId: "pi_01JDX4" },
        deliveryKey: `${event}:${payment.payment_id}`,
      });
    }
  });

  it("keeps nothing of the body's amounts or statuses in the hint", () => {
    const hint = JSON.stringify(parseXenditEvent(envelope("payment.capture", payment)));
    expect(hint).not.toContain("SUCCEEDED");
    expect(hint).not.toContain("1500");
    expect(hint).not.toContain("GCASH");
  });

  it("reads a refund event flat and as the doc example nests it in data.data", () => {
    const subject = { resource: "refund", id: refund.id, paymentRequestId: refund.payment_request_id, referenceId: "rf_01JDX5" };
    expect(parseXenditEvent(envelope("refund.succeeded", refund))).toMatchObject({ subject });
    expect(parseXenditEvent(envelope("refund.failed", { data: refund }))).toMatchObject({ subject, deliveryKey: `refund.failed:${refund.id}` });
  });

  it("reads the session, payment request and failure events by their own ids", () => {
    const session = { payment_session_id: "ps-67f3ab4c1d2e3f4a5b6c7d8e", reference_id: "chk_01", status: "COMPLETED", payment_request_id: "pr-1", payment_id: "py-1" };
    expect(parseXenditEvent(envelope("payment_session.completed", session)).subject).toEqual({
      resource: "payment_session",
      id: session.payment_session_id,
      paymentRequestId: "pr-1",
      paymentId: "py-1",
      referenceId: "chk_01",
    });
    expect(parseXenditEvent(envelope("payment_request.expiry", { payment_request_id: "pr-2", status: "EXPIRED" })).subject).toEqual({ resource: "payment_request", id: "pr-2" });
    expect(parseXenditEvent(envelope("payment.failure", { ...payment, status: "FAILED" })).subject).toMatchObject({ resource: "payment", id: payment.payment_id });
  });

  it("reads an invoice's flat callback as a hint naming the invoice, its paid and expired callbacks told apart", () => {
    const paid = parseXenditEvent(JSON.stringify(invoice));
    expect(paid).toEqual({
      event: "invoice",
      businessId: "5781d19b2e2385880609791c",
      subject: { resource: "invoice", id: invoice.id, paymentId: "py-9c3a", referenceId: "inv_01JDX6" },
      deliveryKey: `invoice:${invoice.id}:PAID`,
    });
    expect(parseXenditEvent(JSON.stringify({ ...invoice, status: "EXPIRED" })).deliveryKey).not.toBe(paid.deliveryKey);
  });

  it("acknowledges an event Bayad does not read without a subject", () => {
    expect(parseXenditEvent(envelope("payment_method.activated", { id: "pm-1" }))).toEqual({
      event: "payment_method.activated",
      businessId: "5f27a14a9bf05c73dd040bc8",
      deliveryKey: "payment_method.activated:",
    });
    expect(XENDIT_EVENTS).toContain("payment.succeeded");
    expect(XENDIT_EVENTS).not.toContain("payment_method.activated");
  });

  it("refuses bodies that are not callbacks, naming the field", () => {
    const refused = (raw: string) => {
      try {
        parseXenditEvent(raw);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(refused("not json")).toMatchObject({ code: "VALIDATION_FAILED", details: ["body: not JSON"] });
    expect(refused("[]")).toMatchObject({ details: ["body: not an object"] });
    expect(refused(JSON.stringify({ data: payment }))).toMatchObject({ details: ["event: missing"] });
    expect(refused(JSON.stringify({ event: "payment.capture" }))).toMatchObject({ details: ["data: missing"] });
    expect(refused(envelope("payment.capture", { ...payment, payment_id: undefined }))).toMatchObject({ details: ["data.payment_id: missing"] });
    expect(refused(JSON.stringify({ ...invoice, id: "../v2/invoices" }))).toMatchObject({ details: ["body.id: not an invoice id"] });
  });

  it("refuses an id that is not its resource's, so no other path is ever read back", () => {
    for (const id of ["pr-5bc28c77", "py-../../v3/payment_requests", "py-", "rfd-1", "py-1?x=1", 42]) {
      expect(() => parseXenditEvent(envelope("payment.capture", { ...payment, payment_id: id }))).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
    }
    expect(() => parseXenditEvent(envelope("refund.succeeded", { ...refund, id: "py-1" }))).toThrow(expect.objectContaining({ code: "VALIDATION_FAILED" }));
  });
});
