import { create } from "@bufbuild/protobuf";
import { CheckoutSchema, CheckoutStatus, EventSchema, PaymentIntentSchema, PaymentIntentStatus, PaymentMethod, PlanSchema } from "@bayad/proto";
import { describe, expect, it } from "vitest";
import { publicEventOf, webhookEventTypes } from "./event-types.js";
import { checkoutToJson } from "./payments.js";
import { publicUrlResolver } from "./public-url.js";

const publicUrl = publicUrlResolver(() => "https://pay.example.ph");
const checkout = create(CheckoutSchema, {
  checkoutId: "chk_1",
  referenceId: "order-42",
  status: CheckoutStatus.PAID,
  amount: { amountMinor: 150_00n, currency: "PHP" },
  checkoutUrl: "/checkout/chk_1?token=t",
  aggregateVersion: 3,
});

describe("publicEventOf", () => {
  it("names a public event by the internal type without its service, with the resource as the API answers it", () => {
    const event = create(EventSchema, { eventId: "evt_1", type: "payments.checkout.paid", snapshot: { case: "checkout", value: checkout } });
    const result = publicEventOf(event, publicUrl);
    expect(result).toEqual({ type: "checkout.paid", data: checkoutToJson(checkout, publicUrl) });
    expect(result?.data.checkoutUrl).toBe("https://pay.example.ph/checkout/chk_1?token=t");
  });

  it("tells nothing of changes consumers do not subscribe to", () => {
    const opened = create(EventSchema, { type: "payments.checkout.pending", snapshot: { case: "checkout", value: checkout } });
    const plan = create(EventSchema, { type: "billing.plan.created", snapshot: { case: "plan", value: create(PlanSchema, { planId: "plan_1" }) } });
    expect(publicEventOf(opened, publicUrl)).toBeNull();
    expect(publicEventOf(plan, publicUrl)).toBeNull();
  });

  it("announces an intent waiting for its payer as payment_intent.requires_action, with the page to send the payer to", () => {
    const waiting = create(PaymentIntentSchema, {
      paymentIntentId: "pi_1",
      referenceId: "order-7",
      status: PaymentIntentStatus.AWAITING_NEXT_ACTION,
      amount: { amountMinor: 250_00n, currency: "PHP" },
      paymentMethod: PaymentMethod.GCASH,
      returnUrl: "https://shop.example.ph/done",
      nextAction: { type: "redirect", url: "/sandbox/intents/pi_1?token=t" },
      aggregateVersion: 1,
    });
    const event = create(EventSchema, { type: "payments.payment_intent.awaiting_next_action", snapshot: { case: "paymentIntent", value: waiting } });
    expect(publicEventOf(event, publicUrl)).toEqual({
      type: "payment_intent.requires_action",
      data: expect.objectContaining({
        paymentIntentId: "pi_1",
        status: "requires_action",
        paymentMethod: { type: "gcash" },
        nextAction: { type: "redirect", url: "https://pay.example.ph/sandbox/intents/pi_1?token=t" },
      }),
    });

    const paying = create(PaymentIntentSchema, { ...waiting, status: PaymentIntentStatus.PROCESSING, nextAction: undefined, aggregateVersion: 2 });
    const processing = publicEventOf(create(EventSchema, { type: "payments.payment_intent.processing", snapshot: { case: "paymentIntent", value: paying } }), publicUrl);
    expect(processing?.type).toBe("payment_intent.processing");
    expect(processing?.data).toMatchObject({ status: "processing", paymentMethod: { type: "gcash" } });
    expect(processing?.data).not.toHaveProperty("nextAction");
  });

  it("announces a QR Ph code ready as payment_intent.requires_action with its image", () => {
    const code = create(PaymentIntentSchema, {
      paymentIntentId: "pi_2",
      referenceId: "order-8",
      status: PaymentIntentStatus.AWAITING_NEXT_ACTION,
      amount: { amountMinor: 99_00n, currency: "PHP" },
      paymentMethod: PaymentMethod.QRPH,
      qrCodeImageUrl: "/sandbox/qr/pi_2.png",
      aggregateVersion: 1,
    });
    const event = create(EventSchema, { type: "payments.payment_intent.awaiting_next_action", snapshot: { case: "paymentIntent", value: code } });
    expect(publicEventOf(event, publicUrl)).toMatchObject({
      type: "payment_intent.requires_action",
      data: { paymentIntentId: "pi_2", status: "requires_action", qrCodeImageUrl: "https://pay.example.ph/sandbox/qr/pi_2.png" },
    });
  });

  it("leaves a card intent's creation unannounced: it waits for the merchant's confirm, not a payer", () => {
    const card = create(PaymentIntentSchema, { paymentIntentId: "pi_3", status: PaymentIntentStatus.REQUIRES_ACTION, paymentMethod: PaymentMethod.CARD });
    expect(publicEventOf(create(EventSchema, { type: "payments.payment_intent.requires_action", snapshot: { case: "paymentIntent", value: card } }), publicUrl)).toBeNull();
  });

  it("needs the resource: a public type without a snapshot is not told", () => {
    expect(publicEventOf(create(EventSchema, { type: "payments.checkout.paid" }), publicUrl)).toBeNull();
  });

  it("lists every type once, each <resource>.<what happened>", () => {
    expect(new Set(webhookEventTypes).size).toBe(webhookEventTypes.length);
    for (const type of webhookEventTypes) expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });
});
