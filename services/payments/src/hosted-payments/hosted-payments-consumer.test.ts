import { describe, expect, it } from "vitest";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { EventSchema, InvoiceStatus, PaymentLinkStatus, type Event } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { createHostedPaymentsRepository } from "./hosted-payments-repository.js";
import { hostedPaymentOf, hostedPaymentsMessageHandler } from "./hosted-payments-consumer.js";
import { createTestStore } from "@bayad/store/testing";

const paidAt = new Date("2026-11-20T03:00:00Z");
const providerPayment = { providerAccountId: "pa_live", providerPaymentId: "pay_abc", method: "gcash", paidAt: timestampFromDate(paidAt) };

function linkEvent(status: PaymentLinkStatus, withPayment = true): Event {
  return create(EventSchema, {
    eventId: `evt_${status}_${String(withPayment)}`,
    type: "links.payment_link.paid",
    projectId: "prj_a",
    environment: "live",
    resourceId: "link_one",
    aggregateVersion: 2,
    snapshot: {
      case: "paymentLink",
      value: { paymentLinkId: "link_one", status, amount: { amountMinor: 250_00n, currency: "PHP" }, ...(withPayment ? { providerPayment } : {}) },
    },
  });
}

describe("hostedPaymentOf", () => {
  it("reads a paid link's provider payment", () => {
    expect(hostedPaymentOf(linkEvent(PaymentLinkStatus.PAID))).toMatchObject({
      _id: "link_one",
      projectId: "prj_a",
      environment: "live",
      kind: "payment_link",
      status: "paid",
      amountMinor: 250_00,
      refundableMinor: 250_00,
      providerAccountId: "pa_live",
      providerPaymentId: "pay_abc",
      paymentMethodUsed: "gcash",
      paidAt,
    });
  });

  it("reads a paid sandbox invoice, which names no provider account or payment", () => {
    const event = create(EventSchema, {
      eventId: "evt_inv",
      projectId: "prj_a",
      environment: "test",
      resourceId: "inv_one",
      snapshot: { case: "invoice", value: { invoiceId: "inv_one", status: InvoiceStatus.PAID, amount: { amountMinor: 99_00n, currency: "PHP" }, providerPayment: { paidAt: timestampFromDate(paidAt) } } },
    });
    const paid = hostedPaymentOf(event);
    expect(paid).toMatchObject({ _id: "inv_one", kind: "invoice", environment: "test", amountMinor: 99_00 });
    expect(paid).not.toHaveProperty("providerAccountId");
    expect(paid).not.toHaveProperty("providerPaymentId");
  });

  it("ignores unpaid links and paid ones announced without their payment", () => {
    expect(hostedPaymentOf(linkEvent(PaymentLinkStatus.ACTIVE))).toBeNull();
    expect(hostedPaymentOf(linkEvent(PaymentLinkStatus.PAID, false))).toBeNull();
  });
});

describe("hostedPaymentsMessageHandler", () => {
  it("records a paid link once: a redelivery does not restore what refunds took", async () => {
    const store = createTestStore();
    const repository = createHostedPaymentsRepository(store);
    const handle = hostedPaymentsMessageHandler({ repository, logger: createLogger("test", "silent") });
    const event = linkEvent(PaymentLinkStatus.PAID);
    const message = { subject: "bayad.events.links.payment_link.paid", eventId: event.eventId, payload: toBinary(EventSchema, event), redelivered: false };
    await handle(message);
    await repository.collection.updateOne({ _id: "link_one" }, { $inc: { refundableMinor: -100_00 } });
    await handle({ ...message, redelivered: true });
    expect((await repository.collection.findOne({ _id: "link_one" }))?.refundableMinor).toBe(150_00);
    await store.close();
  });
});
