import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { parsePaymongoEvent, PAYMONGO_WEBHOOK_EVENTS } from "./paymongo-event.js";

const event = (attributes: Record<string, unknown>) =>
  JSON.stringify({ data: { id: "evt_abc", type: "event", attributes: { type: "payment.paid", livemode: true, created_at: 1_764_000_000, ...attributes } } });

describe("parsePaymongoEvent", () => {
  it("reads the event's id, type, mode, time and resource", () => {
    const parsed = parsePaymongoEvent(
      event({ data: { id: "pay_1", type: "payment", attributes: { amount: 10000, status: "paid" } }, previous_data: {} }),
    );
    expect(parsed).toEqual({
      id: "evt_abc",
      type: "payment.paid",
      livemode: true,
      data: { id: "pay_1", type: "payment", attributes: { amount: 10000, status: "paid" } },
      createdAt: new Date(1_764_000_000_000),
    });
  });

  it("reads a flat resource (no attributes) as its own attributes", () => {
    const parsed = parsePaymongoEvent(event({ data: { id: "link_1", status: "paid", reference_number: "AbC1234" } }));
    expect(parsed.data.attributes).toMatchObject({ status: "paid", reference_number: "AbC1234" });
  });

  it.each([
    ["not JSON", "{", "body: not JSON"],
    ["no data", "{}", "data: missing"],
    ["no event id", JSON.stringify({ data: { attributes: {} } }), "data.id: missing"],
    ["no type", event({ type: undefined }), "data.attributes.type: missing"],
    ["no mode", event({ livemode: "yes", data: { id: "x" } }), "data.attributes.livemode: not a boolean"],
    ["no resource", event({}), "data.attributes.data: not a resource with an id"],
    ["no time", event({ created_at: "today", data: { id: "pay_1" } }), "data.attributes.created_at: not a unix time"],
  ])("refuses a body with %s, naming the field", (_name, body, detail) => {
    let thrown: unknown;
    try {
      parsePaymongoEvent(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: "VALIDATION_FAILED", details: [detail] });
  });
});

describe("PAYMONGO_WEBHOOK_EVENTS", () => {
  it("holds every event the payments service applies", () => {
    expect([...PAYMONGO_WEBHOOK_EVENTS].sort()).toEqual(
      [
        "checkout_session.payment.paid",
        "link.payment.paid",
        "payment.failed",
        "payment.paid",
        "payment.refund.updated",
        "payment.refunded",
        "qrph.expired",
      ].sort(),
    );
  });
});
