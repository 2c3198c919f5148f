import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { EventSchema } from "@bayad/proto";
import {
  CheckoutStatus,
  InvoiceStatus,
  PaymentIntentStatus,
  PaymentLinkStatus,
  RefundStatus,
  SubscriptionStatus,
} from "@bayad/proto";
import { at, eventOf, php } from "../test-support/events.js";
import { MalformedEventError, recordFromEvent } from "./record-from-event.js";

const created = new Date("2026-03-01T08:00:00.000Z");
const occurred = new Date("2026-03-02T09:30:00.000Z");

describe("recordFromEvent", () => {
  it("maps a checkout", () => {
    const event = eventOf(
      {
        case: "checkout",
        value: { checkoutId: "chk_1", referenceId: "order-1", status: CheckoutStatus.PAID, amount: php(150_00), createdAt: at(created), provider: "xendit", providerAccountId: "pa_xendit", paymentMethod: "gcash", fee: php(3_75), metadata: { order: "A=1" } },
      },
      { resourceId: "chk_1", version: 3, occurredAt: occurred },
    );
    expect(recordFromEvent(event)).toEqual({
      _id: "chk_1",
      type: "checkout",
      projectId: "prj_records",
      environment: "test",
      referenceId: "order-1",
      relatedResourceId: null,
      amountMinor: "15000",
      amount: 150_00,
      currency: "PHP",
      status: "paid",
      provider: "xendit",
      providerAccountId: "pa_xendit",
      paymentMethod: "gcash",
      fee: 3_75,
      metadata: { order: "A=1" },
      metadataPairs: ['["order","A=1"]'],
      createdAt: created,
      aggregateVersion: 3,
    });
  });

  it("maps a payment intent with its public status", () => {
    const intent = (status: PaymentIntentStatus) =>
      recordFromEvent(
        eventOf(
          { case: "paymentIntent", value: { paymentIntentId: "pi_1", referenceId: "order-2", status, amount: php(99), createdAt: at(created) } },
          { resourceId: "pi_1", environment: "live" },
        ),
      );
    expect(intent(PaymentIntentStatus.SUCCEEDED)).toMatchObject({
      type: "payment_intent",
      environment: "live",
      referenceId: "order-2",
      relatedResourceId: null,
      amountMinor: "99",
      currency: "PHP",
      status: "succeeded",
    });
    // QR Ph's internal states read as the public ones.
    expect(intent(PaymentIntentStatus.AWAITING_NEXT_ACTION)?.status).toBe("requires_action");
    expect(intent(PaymentIntentStatus.EXPIRED)?.status).toBe("cancelled");
    expect(intent(PaymentIntentStatus.REQUIRES_ACTION)?.status).toBe("requires_action");
  });

  it("maps a refund with a negative amount, its payment as the related resource and no reference", () => {
    const event = eventOf(
      { case: "refund", value: { refundId: "ref_1", paymentId: "pi_9", status: RefundStatus.PENDING, amount: php(40_00), reason: "x", createdAt: at(created) } },
      { resourceId: "ref_1" },
    );
    expect(recordFromEvent(event)).toMatchObject({
      _id: "ref_1",
      type: "refund",
      referenceId: null,
      relatedResourceId: "pi_9",
      amountMinor: "-4000",
      currency: "PHP",
      status: "pending",
    });
  });

  it("maps a subscription with its customer and its per-period amount", () => {
    const event = eventOf(
      {
        case: "subscription",
        value: { subscriptionId: "sub_1", customerId: "cus_1", referenceId: "member-7", planId: "plan_1", status: SubscriptionStatus.PAST_DUE, amount: php(499_00), createdAt: at(created) },
      },
      { resourceId: "sub_1" },
    );
    expect(recordFromEvent(event)).toMatchObject({
      type: "subscription",
      referenceId: "member-7",
      relatedResourceId: "cus_1",
      amountMinor: "49900",
      currency: "PHP",
      status: "past_due",
    });
  });

  it("maps an invoice with its subscription and no reference", () => {
    const event = eventOf(
      { case: "invoice", value: { invoiceId: "inv_1", subscriptionId: "sub_1", status: InvoiceStatus.OPEN, amount: php(499_00), createdAt: at(created) } },
      { resourceId: "inv_1" },
    );
    expect(recordFromEvent(event)).toMatchObject({
      type: "invoice",
      referenceId: null,
      relatedResourceId: "sub_1",
      amountMinor: "49900",
      status: "open",
    });
  });

  it("maps a payment link", () => {
    const event = eventOf(
      { case: "paymentLink", value: { paymentLinkId: "link_1", referenceId: "inv-2026-1", amount: php(1200_00), status: PaymentLinkStatus.ARCHIVED, createdAt: at(created) } },
      { resourceId: "link_1" },
    );
    expect(recordFromEvent(event)).toMatchObject({
      type: "payment_link",
      referenceId: "inv-2026-1",
      relatedResourceId: null,
      amountMinor: "120000",
      status: "archived",
    });
  });

  it("ignores customers and plans: they are not payment records", () => {
    expect(recordFromEvent(eventOf({ case: "customer", value: { customerId: "cus_1", email: "a@b.ph" } }, { resourceId: "cus_1" }))).toBeNull();
    expect(recordFromEvent(eventOf({ case: "plan", value: { planId: "plan_1", amount: 100n, currency: "PHP" } }, { resourceId: "plan_1" }))).toBeNull();
  });

  it("ignores an event without a snapshot it knows", () => {
    expect(recordFromEvent(create(EventSchema, { eventId: "evt_1", resourceId: "x", projectId: "prj_1", environment: "test", aggregateVersion: 1 }))).toBeNull();
  });

  it("falls back to the event's time without the resource's, and to nulls for absent facts", () => {
    const event = eventOf({ case: "checkout", value: { checkoutId: "chk_2" } }, { resourceId: "chk_2", occurredAt: occurred });
    expect(recordFromEvent(event)).toMatchObject({
      createdAt: occurred,
      referenceId: null,
      amountMinor: null,
      currency: null,
      status: null,
    });
  });

  it("refuses an event without what every record needs", () => {
    const checkout = { case: "checkout" as const, value: { checkoutId: "chk_3", createdAt: at(created) } };
    expect(() => recordFromEvent(eventOf(checkout, { resourceId: "" }))).toThrow(MalformedEventError);
    expect(() => recordFromEvent(eventOf(checkout, { resourceId: "chk_3", projectId: "" }))).toThrow(MalformedEventError);
    expect(() => recordFromEvent(eventOf(checkout, { resourceId: "chk_3", version: 0 }))).toThrow(MalformedEventError);
    const otherEnvironment = eventOf(checkout, { resourceId: "chk_3" });
    otherEnvironment.environment = "staging";
    expect(() => recordFromEvent(otherEnvironment)).toThrow(MalformedEventError);
  });
});
