import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkoutSessionAttributes } from "./test-support/api-client.js";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";

let f: Fixture;
beforeEach(async () => {
  f = await simulatorWithWebhook({ retrySchedule: [] });
});
afterEach(async () => {
  await f.close();
});

/** The controls take no credentials: they are for local work. */
async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${f.sim.url}/__simulator/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function attachedIntent(type: string) {
  const pi = await f.api.create("/v1/payment_intents", { amount: 3000, currency: "PHP", payment_method_allowed: [type] });
  const pm = await f.api.create("/v1/payment_methods", { type });
  await f.api.post(`/v1/payment_intents/${pi.id}/attach`, { payment_method: pm.id, return_url: "https://x.ph/back" });
  return pi.id as string;
}

describe("/__simulator controls", () => {
  it("pays and expires checkout sessions", async () => {
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const paid = await control("POST", `checkout_sessions/${session.id}/pay`, { method: "qrph" });
    expect(paid.status).toBe(200);
    expect(f.sim.find(paid.body.paymentId)).toMatchObject({ attributes: { source: { type: "qrph" } } });
    const other = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const expired = await control("POST", `checkout_sessions/${other.id}/expire`);
    expect(expired.body.data.attributes.status).toBe("expired");
    const again = await control("POST", `checkout_sessions/${other.id}/expire`);
    expect(again.status).toBe(400);
    expect(again.body.errors[0].code).toBe("resource_failed_state");
  });

  it("pays, fails and expires payment intents", async () => {
    const paid = await control("POST", `payment_intents/${await attachedIntent("gcash")}/pay`);
    expect(paid.body.paymentId).toMatch(/^pay_/);
    const failed = await control("POST", `payment_intents/${await attachedIntent("paymaya")}/fail`, { code: "card_expired", message: "Expired." });
    expect(failed.body.data.attributes.last_payment_error).toMatchObject({ failed_code: "card_expired" });
    const expired = await control("POST", `payment_intents/${await attachedIntent("qrph")}/expire_qrph`);
    expect(expired.body.data.attributes.status).toBe("awaiting_payment_method");
  });

  it("pays links and settles refunds", async () => {
    const link = await f.api.create("/v1/links", { amount: 20000, description: "Invoice" });
    const { body } = await control("POST", `links/${link.id}/pay`);
    const refund = await f.api.create("/v1/refunds", { amount: 20000, payment_id: body.paymentId, reason: "others" });
    const settled = await control("POST", `refunds/${refund.id}/settle`, { status: "succeeded" });
    expect(settled.body.data.attributes.status).toBe("succeeded");
  });

  it("sets the delivery mode, lists events and deliveries, flushes, resends", async () => {
    expect((await control("POST", "webhook-delivery", { mode: "reorder" })).body).toEqual({ mode: "reorder", delayMs: 1000 });
    expect((await control("GET", "webhook-delivery")).body.mode).toBe("reorder");
    await f.sim.payPaymentIntent(await attachedIntent("gcash"));
    expect((await control("GET", "deliveries")).body.data).toEqual([]);
    const flushed = await control("POST", "deliveries/flush");
    expect(flushed.body.data).toMatchObject([{ type: "payment.paid", attempt: 1, status: 200 }]);
    const events = (await control("GET", "events")).body.data;
    expect(events).toMatchObject([{ type: "payment.paid", livemode: false, body: expect.any(String) }]);
    const resent = await control("POST", `events/${events[0].id}/resend`);
    expect(resent.body.data).toHaveLength(2);
    expect(f.receiver.received).toHaveLength(2);
    expect((await control("POST", "webhook-delivery", { mode: "nope" })).status).toBe(400);
  });

  it("injects, lists and clears faults", async () => {
    const armed = await control("POST", "faults", { method: "GET", path: "/v1/webhooks", status: 429, times: 2 });
    expect(armed.body.data).toEqual([{ method: "GET", path: "/v1/webhooks", status: 429, times: 2 }]);
    expect((await f.api.get("/v1/webhooks")).status).toBe(429);
    expect((await control("GET", "faults")).body.data[0].times).toBe(1);
    await control("DELETE", "faults");
    expect((await f.api.get("/v1/webhooks")).status).toBe(200);
    expect((await control("POST", "faults", { status: "sometimes" })).status).toBe(400);
  });

  it("shows any object by id, and answers 404 for unknown ids and controls", async () => {
    const customer = await f.api.create("/v1/customers", { first_name: "A", last_name: "B", email: "a@b.ph", default_device: "email" });
    expect((await control("GET", `objects/${customer.id}`)).body.data).toEqual(customer);
    expect((await control("GET", "objects/cus_nope")).status).toBe(404);
    expect((await control("POST", "payment_intents/pi_nope/pay")).status).toBe(404);
    expect((await control("POST", "nothing")).status).toBe(404);
  });
});
