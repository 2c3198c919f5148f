import { createHmac, timingSafeEqual } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { paymongoSignature } from "./index.js";
import { apiClient, checkoutSessionAttributes } from "./test-support/api-client.js";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";
import { startWebhookReceiver } from "./test-support/webhook-receiver.js";

let f: Fixture;
afterEach(async () => {
  await f.close();
});

/** The check Bayad must make, written here from PayMongo's description, not taken from the simulator. */
function verify(header: string, rawBody: string, secret: string, livemode: boolean): boolean {
  const fields = Object.fromEntries(header.split(",").map((part) => part.split("=") as [string, string]));
  const given = livemode ? fields["li"]! : fields["te"]!;
  const expected = createHmac("sha256", secret).update(`${fields["t"]}.${rawBody}`).digest("hex");
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

async function paySession(api = f.api) {
  const session = await api.create("/v1/checkout_sessions", checkoutSessionAttributes());
  return f.sim.payCheckoutSession(session.id);
}

describe("webhook registration", () => {
  it("registers an enabled webhook with a whsk_ secret, lists, reads, updates, disables and enables it", async () => {
    f = await simulatorWithWebhook();
    const { webhook, api } = f;
    expect(webhook.id).toMatch(/^hook_[0-9A-Za-z]{24}$/);
    expect(webhook.attributes).toMatchObject({ status: "enabled", disabled_reason: null, livemode: false, url: f.receiver.url });
    expect(webhook.attributes.secret_key).toMatch(/^whsk_[0-9A-Za-z]{24}$/);
    expect((await api.get(`/v1/webhooks/${webhook.id}`)).body.data).toEqual(webhook);
    expect((await api.get("/v1/webhooks")).body.data).toEqual([webhook]);

    const updated = (await api.put(`/v1/webhooks/${webhook.id}`, { events: ["payment.paid"] })).body.data;
    expect(updated.attributes.events).toEqual(["payment.paid"]);
    const disabled = (await api.post(`/v1/webhooks/${webhook.id}/disable`)).body.data;
    expect(disabled.attributes).toMatchObject({ status: "disabled", disabled_reason: "disabled_by_merchant" });
    const enabled = (await api.post(`/v1/webhooks/${webhook.id}/enable`)).body.data;
    expect(enabled.attributes).toMatchObject({ status: "enabled", disabled_reason: null });
  });

  it("refuses a bad url and unknown event types", async () => {
    f = await simulatorWithWebhook();
    const answer = await f.api.post("/v1/webhooks", { url: "ftp://x", events: ["payment.paid", "payment.exploded"] });
    expect(answer.body.errors.map((e: { code: string; source: { attribute: string } }) => [e.source.attribute, e.code])).toEqual([
      ["url", "parameter_format_invalid"],
      ["events", "parameter_invalid"],
    ]);
  });
});

describe("signed deliveries", () => {
  it("signs a test-mode event in te, with li empty, over the exact raw body", async () => {
    f = await simulatorWithWebhook();
    await paySession();
    await f.receiver.waitFor(2);
    for (const { headers, rawBody, json } of f.receiver.received) {
      const header = headers["paymongo-signature"] as string;
      expect(header).toMatch(/^t=\d+,te=[0-9a-f]{64},li=$/);
      expect(verify(header, rawBody, f.webhook.attributes.secret_key, false)).toBe(true);
      expect(verify(header, rawBody, "whsk_someoneelse", false)).toBe(false);
      expect(json.data).toMatchObject({ id: expect.stringMatching(/^evt_/), type: "event", attributes: { livemode: false, previous_data: {} } });
    }
  });

  it("signs a live-mode event in li, with te empty", async () => {
    f = await simulatorWithWebhook({}, { mode: "live" });
    await paySession();
    await f.receiver.waitFor(1);
    const { headers, rawBody, json } = f.receiver.received[0]!;
    expect(headers["paymongo-signature"]).toMatch(/^t=\d+,te=,li=[0-9a-f]{64}$/);
    expect(verify(headers["paymongo-signature"] as string, rawBody, f.webhook.attributes.secret_key, true)).toBe(true);
    expect(json.data.attributes.livemode).toBe(true);
  });

  it("matches a vector computed with openssl", () => {
    // printf '%s' '1700000000.{"data":{"id":"evt_1"}}' | openssl dgst -sha256 -hmac whsk_vector
    expect(paymongoSignature("whsk_vector", '{"data":{"id":"evt_1"}}', false, 1700000000)).toBe(
      "t=1700000000,te=ce9604cbbf150a0de95053eb8c4dfbb4a890159dcba26c4bdacb7df02c303dba,li=",
    );
  });

  it("delivers only to enabled webhooks of the same account that asked for the type", async () => {
    f = await simulatorWithWebhook({}, { events: ["payment.paid"] });
    const other = await startWebhookReceiver();
    const disabled = await startWebhookReceiver();
    try {
      await apiClient(f.sim.url).create("/v1/webhooks", { url: other.url, events: ["payment.paid"] });
      const off = await f.api.create("/v1/webhooks", { url: disabled.url, events: ["payment.paid"] });
      await f.api.post(`/v1/webhooks/${off.id}/disable`);
      await paySession();
      await f.sim.flushDeliveries();
      expect(f.receiver.types()).toEqual(["payment.paid"]);
      expect(other.received).toEqual([]);
      expect(disabled.received).toEqual([]);
      expect(f.sim.events().map((e) => e.type).sort()).toEqual(["checkout_session.payment.paid", "payment.paid"]);
    } finally {
      await other.close();
      await disabled.close();
    }
  });
});

describe("retries and disabling", () => {
  it("retries a failing delivery per the schedule and records every attempt", async () => {
    f = await simulatorWithWebhook({ retrySchedule: [10, 10, 10] }, { events: ["payment.paid"] });
    f.receiver.respondWith(500);
    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    const attempts = f.sim.deliveries();
    expect(attempts.map((a) => [a.type, a.attempt, a.status])).toEqual([
      ["payment.paid", 1, 500],
      ["payment.paid", 2, 500],
      ["payment.paid", 3, 500],
      ["payment.paid", 4, 500],
    ]);
    expect(new Set(f.receiver.received.map((r) => r.json.data.id)).size).toBe(1);
  });

  it("succeeds on a later retry", async () => {
    f = await simulatorWithWebhook({ retrySchedule: [10, 10] }, { events: ["payment.paid"] });
    f.receiver.respondWith(503);
    await paySession();
    await f.receiver.waitFor(1);
    f.receiver.respondWith(200);
    await f.sim.flushDeliveries({ untilSettled: true });
    expect(f.sim.deliveries().map((a) => a.status)).toEqual([503, 200]);
  });

  it("counts an endpoint that does not answer within deliveryTimeoutMs as a failure", async () => {
    f = await simulatorWithWebhook({ retrySchedule: [], deliveryTimeoutMs: 100 }, { events: ["payment.paid"] });
    f.receiver.respondWith("hang");
    await paySession();
    await f.sim.flushDeliveries();
    const [attempt] = f.sim.deliveries();
    expect(attempt).toMatchObject({ attempt: 1, error: "no answer within 100 ms" });
    expect(attempt!.status).toBeUndefined();
  });

  it("disables the webhook with max_retries_exceeded after N events in a row run out of retries", async () => {
    f = await simulatorWithWebhook({ retrySchedule: [5], disableAfterExhaustedEvents: 2 }, { events: ["payment.paid"] });
    f.receiver.respondWith(500);
    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    expect((await f.api.get(`/v1/webhooks/${f.webhook.id}`)).body.data.attributes.status).toBe("enabled");
    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    const hook = (await f.api.get(`/v1/webhooks/${f.webhook.id}`)).body.data;
    expect(hook.attributes).toMatchObject({ status: "disabled", disabled_reason: "max_retries_exceeded" });

    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    expect(f.sim.deliveries()).toHaveLength(4);
    expect(f.sim.events().filter((e) => e.type === "payment.paid")).toHaveLength(3);
  });

  it("a delivered event breaks the run of exhausted ones", async () => {
    f = await simulatorWithWebhook({ retrySchedule: [], disableAfterExhaustedEvents: 2 }, { events: ["payment.paid"] });
    f.receiver.respondWith(500);
    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    f.receiver.respondWith(200);
    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    f.receiver.respondWith(500);
    await paySession();
    await f.sim.flushDeliveries({ untilSettled: true });
    expect((await f.api.get(`/v1/webhooks/${f.webhook.id}`)).body.data.attributes.status).toBe("enabled");
  });

  it("resendEvent sends an event again with the same id", async () => {
    f = await simulatorWithWebhook({}, { events: ["payment.paid"] });
    f.sim.setWebhookDelivery({ mode: "drop" });
    await paySession();
    const [event] = f.sim.events().filter((e) => e.type === "payment.paid");
    expect(f.receiver.received).toEqual([]);
    await f.sim.resendEvent(event!.id);
    expect(f.receiver.received.map((r) => r.rawBody)).toEqual([event!.body]);
    await expect(f.sim.resendEvent("evt_nope")).rejects.toMatchObject({ status: 404 });
  });
});
