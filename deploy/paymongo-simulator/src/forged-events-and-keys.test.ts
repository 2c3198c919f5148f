import { afterEach, describe, expect, it } from "vitest";
import { paymongoSignature } from "./index.js";
import { apiClient, checkoutSessionAttributes } from "./test-support/api-client.js";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";

let f: Fixture;
afterEach(async () => {
  await f.close();
});

const control = async (path: string, body: unknown) => {
  const response = await fetch(`${f.sim.url}/__simulator/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
};

describe("POST /__simulator/events/forge", () => {
  it("delivers the given data, signed with the webhook's secret, while PayMongo's own object stays as it was", async () => {
    f = await simulatorWithWebhook();
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const forged = { id: session.id, type: "checkout_session", attributes: { ...session.attributes, payments: [{ id: "pay_forged", type: "payment", attributes: { status: "paid", amount: 1 } }] } };

    const answer = await control("events/forge", { type: "checkout_session.payment.paid", data: forged });
    expect(answer.status).toBe(200);
    await f.receiver.waitFor(1);

    const [delivery] = f.receiver.received;
    expect(delivery!.json.data.id).toBe(answer.body.data.eventId);
    expect(delivery!.json.data.attributes).toMatchObject({ type: "checkout_session.payment.paid", livemode: false, data: { id: session.id } });
    expect(delivery!.json.data.attributes.data.attributes.payments[0].id).toBe("pay_forged");
    const t = /t=(\d+)/.exec(delivery!.headers["paymongo-signature"] as string)![1]!;
    expect(delivery!.headers["paymongo-signature"]).toBe(paymongoSignature(f.webhook.attributes.secret_key, delivery!.rawBody, false, Number(t)));
    // The event changed nothing at "PayMongo": the session is unpaid.
    expect((await f.api.get(`/v1/checkout_sessions/${session.id}`)).body.data.attributes.payments).toEqual([]);
  });

  it("refuses data that is not a resource, and an id it cannot take an account from", async () => {
    f = await simulatorWithWebhook();
    expect((await control("events/forge", { type: "payment.paid", data: "x" })).body.errors[0].source.attribute).toBe("data");
    expect((await control("events/forge", { type: "payment.paid", data: { id: "pay_nobody", attributes: {} } })).body.errors[0].source.attribute).toBe("data.id");
  });
});

describe("POST /__simulator/keys/roll", () => {
  it("makes the old key answer 401 and the new key reach the same account and its webhook", async () => {
    f = await simulatorWithWebhook();
    const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
    const rolled = await control("keys/roll", { secretKey: f.api.key });
    expect(rolled.status).toBe(200);
    expect(rolled.body.secretKey).toMatch(/^sk_test_[0-9A-Za-z]{24}$/);

    const refused = await f.api.get(`/v1/checkout_sessions/${session.id}`);
    expect(refused.status).toBe(401);
    const next = apiClient(f.sim.url, rolled.body.secretKey);
    expect((await next.get(`/v1/checkout_sessions/${session.id}`)).body.data.id).toBe(session.id);
    expect((await next.get("/v1/webhooks")).body.data.map((hook: { id: string }) => hook.id)).toEqual([f.webhook.id]);
    // A revoked key cannot be rolled again.
    expect((await control("keys/roll", { secretKey: f.api.key })).status).toBe(401);
  });
});
