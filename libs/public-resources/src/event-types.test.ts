import { create } from "@bufbuild/protobuf";
import { CheckoutSchema, CheckoutStatus, EventSchema, PlanSchema } from "@bayad/proto";
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

  it("needs the resource: a public type without a snapshot is not told", () => {
    expect(publicEventOf(create(EventSchema, { type: "payments.checkout.paid" }), publicUrl)).toBeNull();
  });

  it("lists every type once, each <resource>.<what happened>", () => {
    expect(new Set(webhookEventTypes).size).toBe(webhookEventTypes.length);
    for (const type of webhookEventTypes) expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });
});
