import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkoutSessionAttributes } from "./test-support/api-client.js";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";

let f: Fixture;
beforeEach(async () => {
  f = await simulatorWithWebhook();
});
afterEach(async () => {
  await f.close();
});

describe("POST /v1/checkout_sessions", () => {
  it("opens an active session with a checkout_url, a client_key and an intent for the total", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    expect(session.id).toMatch(/^cs_[0-9A-Za-z]{24}$/);
    expect(session.attributes).toMatchObject({
      status: "active",
      checkout_url: `${f.sim.url}/checkout/${session.id}`,
      reference_number: "order-42",
      payment_method_types: ["gcash", "qrph"],
      line_items: [{ name: "Kape", amount: 7500, currency: "PHP", quantity: 2 }],
      metadata: { bayad_id: "chk_1" },
      payments: [],
      livemode: false,
    });
    expect(session.attributes.client_key).toMatch(new RegExp(`^${session.id}_client_`));
    expect(session.attributes.payment_intent).toMatchObject({
      type: "payment_intent",
      attributes: { amount: 15000, status: "awaiting_payment_method" },
    });
    expect((await f.api.get(`/v1/checkout_sessions/${session.id}`)).body.data).toEqual(session);
  });

  it.each([
    ["line_items", { line_items: undefined }, "parameter_required"],
    ["line_items", { line_items: [] }, "parameter_invalid"],
    ["line_items[0].amount", { line_items: [{ name: "x", amount: 1.5, currency: "PHP", quantity: 1 }] }, "parameter_data_type_invalid"],
    ["line_items[0].currency", { line_items: [{ name: "x", amount: 5000, currency: "USD", quantity: 1 }] }, "parameter_invalid"],
    ["line_items", { line_items: [{ name: "x", amount: 1999, currency: "PHP", quantity: 1 }] }, "parameter_below_minimum"],
    ["payment_method_types", { payment_method_types: ["cash"] }, "parameter_invalid"],
    ["success_url", { success_url: undefined }, "parameter_required"],
    ["cancel_url", { cancel_url: "not a url" }, "parameter_format_invalid"],
    ["reference_number", { reference_number: undefined }, "parameter_required"],
    ["metadata", { metadata: { nested: { no: 1 } } }, "parameter_invalid"],
  ])("refuses a bad %s (%j) with %s", async (attribute, overrides, code) => {
    const answer = await f.api.post("/v1/checkout_sessions", checkoutSessionAttributes(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ code, detail: expect.any(String), source: { pointer: `attributes.${attribute}`, attribute } }]);
  });
});

describe("paying a checkout session", () => {
  it("makes a paid payment, marks the session paid (still active, as PayMongo shows it) and sends checkout_session.payment.paid and payment.paid", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const { paymentId } = await f.sim.payCheckoutSession(session.id, { method: "qrph" });
    expect(paymentId).toMatch(/^pay_[0-9A-Za-z]{24}$/);

    const payment = (await f.api.get(`/v1/payments/${paymentId}`)).body.data;
    expect(payment.attributes).toMatchObject({
      amount: 15000,
      currency: "PHP",
      status: "paid",
      source: { type: "qrph" },
      payment_intent_id: session.attributes.payment_intent.id,
      metadata: { bayad_id: "chk_1" },
    });
    expect(payment.attributes.fee).toBeGreaterThan(0);
    expect(payment.attributes.net_amount).toBe(15000 - payment.attributes.fee);

    const paid = (await f.api.get(`/v1/checkout_sessions/${session.id}`)).body.data;
    expect(paid.attributes.status).toBe("active");
    expect(paid.attributes.paid_at).toEqual(expect.any(Number));
    expect(paid.attributes.payment_method_used).toBe("qrph");
    expect(paid.attributes.payments).toEqual([payment]);
    expect(paid.attributes.payment_intent.attributes.status).toBe("succeeded");

    await f.sim.flushDeliveries();
    expect(f.receiver.types().sort()).toEqual(["checkout_session.payment.paid", "payment.paid"]);
    const sessionEvent = f.receiver.received.find((r) => r.json.data.attributes.type === "checkout_session.payment.paid")!;
    expect(sessionEvent.json.data.attributes.data).toMatchObject({ id: session.id, attributes: { status: "active", payments: [{ id: paymentId, attributes: { status: "paid" } }] } });
    const paymentEvent = f.receiver.received.find((r) => r.json.data.attributes.type === "payment.paid")!;
    expect(paymentEvent.json.data.attributes.data).toEqual(payment);
  });

  it("pays with the first method when none is named, and refuses one the session does not accept", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    await expect(f.sim.payCheckoutSession(session.id, { method: "card" })).rejects.toMatchObject({ status: 400, code: "resource_failed_state" });
    const { paymentId } = await f.sim.payCheckoutSession(session.id);
    expect((f.sim.find(paymentId) as { attributes: { source: { type: string } } }).attributes.source.type).toBe("gcash");
  });

  it("cannot pay a session twice, nor an expired one", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    await f.sim.payCheckoutSession(session.id);
    await expect(f.sim.payCheckoutSession(session.id)).rejects.toMatchObject({ code: "resource_failed_state" });
    const other = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    await f.sim.expireCheckoutSession(other.id);
    await expect(f.sim.payCheckoutSession(other.id)).rejects.toMatchObject({ code: "resource_failed_state" });
  });
});

describe("POST /v1/checkout_sessions/{id}/expire", () => {
  it("expires an active session and refuses to expire a paid one", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const expired = await f.api.post(`/v1/checkout_sessions/${session.id}/expire`);
    expect(expired.status).toBe(200);
    expect(expired.body.data.attributes.status).toBe("expired");

    const paid = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    await f.sim.payCheckoutSession(paid.id);
    const refused = await f.api.post(`/v1/checkout_sessions/${paid.id}/expire`);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe("resource_failed_state");
    expect((await f.api.get(`/v1/checkout_sessions/${paid.id}`)).body.data.attributes).toMatchObject({ status: "active", paid_at: expect.any(Number) });
  });
});

describe("the checkout page", () => {
  it("pays the session from its checkout_url's form and sends the customer to success_url", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const page = await fetch(session.attributes.checkout_url);
    expect(await page.text()).toContain('value="gcash"');
    const submitted = await fetch(`${session.attributes.checkout_url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "method=gcash",
      redirect: "manual",
    });
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get("location")).toBe("https://shop.example.ph/success");
    expect((await f.api.get(`/v1/checkout_sessions/${session.id}`)).body.data.attributes.payments).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ status: "paid" }) })]);
    // Paid, the page offers no payment any more.
    expect(await (await fetch(session.attributes.checkout_url)).text()).not.toContain('value="gcash"');
  });
});
