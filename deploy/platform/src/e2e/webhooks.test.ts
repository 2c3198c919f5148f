import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { eventually, expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { pressOnRedirectPage } from "../test-support/redirect-page.js";

/**
 * Consumers are told that money moved: endpoints registered through the API receive signed
 * events from the webhooks service, retried on WEBHOOK_RETRY_SCHEDULE, listed with every attempt,
 * and redelivered on request. Signatures are checked with the `standardwebhooks` package, as a
 * consumer would check them, never with Bayad's code.
 */

const endpoints = "/api/v1/webhook-endpoints";
/** Quick retries; the first attempt is immediate. */
const quickRetries = { WEBHOOK_RETRY_SCHEDULE: "0s,1s,1s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };

interface Delivered {
  id: string;
  type: string;
  createdAt: string;
  environment: string;
  data: Record<string, unknown>;
}

/** Verifies a delivery with `secret` as a consumer would, answering the event it carries. */
function verified(delivery: ReceivedDelivery, secret: string): Delivered {
  const headers = {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  };
  return new Webhook(secret).verify(delivery.body, headers) as Delivered;
}

async function newEndpoint(api: TestPlatform, url: string, enabledEvents: string[] = ["*"], credential?: string) {
  const response = await api.request("POST", endpoints, { body: { url, enabledEvents, description: "orders service" }, credential });
  expect(response.status).toBe(201);
  return response.body.data as { webhookEndpointId: string; secret: string; url: string; status: string };
}

/** The delivery of the event about `resourceId` of `type` the receiver got, once it got one. */
function deliveryAbout(receiver: WebhookReceiver, type: string, resourceId: string, count = 1): Promise<ReceivedDelivery[]> {
  return eventually(async () => {
    const matching = receiver.received.filter((delivery) => {
      const event = JSON.parse(delivery.body) as Delivered;
      return event.type === type && Object.values(event.data).includes(resourceId);
    });
    return matching.length >= count ? matching : undefined;
  }, 20_000);
}

async function deliveriesOf(api: TestPlatform, webhookEndpointId: string, eventId: string, credential?: string) {
  const response = await api.request("GET", `${endpoints}/${webhookEndpointId}/deliveries?eventId=${eventId}`, { credential });
  expect(response.status).toBe(200);
  return response.body.data.deliveries as Array<{ attempt: number; status: string; responseStatusCode?: number; eventId: string; redelivery: boolean }>;
}

describe("webhooks", () => {
  let api: TestPlatform;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    api = await startTestPlatform(quickRetries);
  });
  afterAll(() => api?.close());
  afterEach(() => receiver?.close());

  it("delivers a paid checkout signed by the Standard Webhooks scheme, the same event the API lists", async () => {
    receiver = await startWebhookReceiver();
    const project = await api.newProject();
    const endpoint = await newEndpoint(api, receiver.url, ["checkout.paid"], project.testKey);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.status).toBe("enabled");

    const checkout = await api.paidCheckout(project.testKey);
    const [delivery] = await deliveryAbout(receiver, "checkout.paid", checkout.checkoutId);
    expect(delivery!.headers["content-type"]).toMatch(/^application\/json/);
    const event = verified(delivery!, endpoint.secret);
    expect(event).toMatchObject({ type: "checkout.paid", environment: "test", data: { checkoutId: checkout.checkoutId, status: "paid" } });
    expect(event.id).toMatch(/^evt_/);
    expect(delivery!.headers["webhook-id"]).toBe(event.id);
    // A forged body does not verify with the endpoint's secret.
    expect(() => verified({ ...delivery!, body: delivery!.body.replace("paid", "PAID") }, endpoint.secret)).toThrow();

    // The event as listed is the delivered body's event, and the checkout as the API reads it.
    const listed = await api.request("GET", `/api/v1/events/${event.id}`, { credential: project.testKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(event);
    const read = await api.request("GET", `/api/v1/payments/checkouts/${checkout.checkoutId}`, { credential: project.testKey });
    expect(event.data).toEqual(read.body.data);
    const page = await api.request("GET", "/api/v1/events?type=checkout.paid", { credential: project.testKey });
    expect(page.body.data.events.map((listedEvent: Delivered) => listedEvent.id)).toContain(event.id);

    // Only what it subscribed to: the checkout's creation and opening are not checkout.paid events.
    expect(receiver.received.every((received) => (JSON.parse(received.body) as Delivered).type === "checkout.paid")).toBe(true);
  });

  it("retries a receiver that answers 500 until the third attempt succeeds, lists all three, and redelivers with the same webhook-id", async () => {
    receiver = await startWebhookReceiver();
    receiver.answers.push(500, 500);
    const project = await api.newProject();
    const endpoint = await newEndpoint(api, receiver.url, ["checkout.paid"], project.testKey);
    const checkout = await api.paidCheckout(project.testKey);

    const deliveries = await deliveryAbout(receiver, "checkout.paid", checkout.checkoutId, 3);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([500, 500, 200]);
    const eventId = String(deliveries[0]!.headers["webhook-id"]);
    expect(new Set(deliveries.map((delivery) => delivery.headers["webhook-id"]))).toEqual(new Set([eventId]));
    for (const delivery of deliveries) expect(verified(delivery, endpoint.secret).id).toBe(eventId);

    const attempts = await eventually(async () => {
      const listed = await deliveriesOf(api, endpoint.webhookEndpointId, eventId, project.testKey);
      return listed.some((attempt) => attempt.status === "succeeded") ? listed : undefined;
    });
    expect(attempts.map(({ attempt, status, responseStatusCode }) => ({ attempt, status, responseStatusCode })).sort((a, b) => a.attempt - b.attempt)).toEqual([
      { attempt: 1, status: "failed", responseStatusCode: 500 },
      { attempt: 2, status: "failed", responseStatusCode: 500 },
      { attempt: 3, status: "succeeded", responseStatusCode: 200 },
    ]);

    const redelivered = await api.request("POST", `${endpoints}/${endpoint.webhookEndpointId}/deliveries/${eventId}/redeliver`, {
      credential: project.testKey,
    });
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data).toMatchObject({ eventId, attempt: 4, redelivery: true });
    const again = await eventually(async () => (receiver.deliveriesOf(eventId).length === 4 ? receiver.deliveriesOf(eventId) : undefined));
    expect(verified(again[3]!, endpoint.secret)).toEqual(verified(deliveries[2]!, endpoint.secret));

    // Operators see the outcomes and the queue in the metrics.
    const metrics = await (await fetch(api.platform.metricsUrl)).text();
    const count = (outcome: string) => Number(new RegExp(`^bayad_webhook_deliveries_total\\{[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`, "m").exec(metrics)?.[1] ?? 0);
    expect(count("failed")).toBeGreaterThanOrEqual(2);
    expect(count("succeeded")).toBeGreaterThanOrEqual(2);
    expect(metrics).toMatch(/^bayad_webhook_delivery_duration_seconds_bucket/m);
    expect(metrics).toMatch(/^bayad_webhook_oldest_pending_seconds/m);
  });

  it("tells of a GCash intent's redirect page (payment_intent.requires_action), then processing and succeeded once the payer pays there", async () => {
    receiver = await startWebhookReceiver();
    const project = await api.newProject();
    const types = ["payment_intent.requires_action", "payment_intent.processing", "payment_intent.succeeded"];
    const endpoint = await newEndpoint(api, receiver.url, types, project.testKey);
    const created = await api.request("POST", "/api/v1/payments/intents", {
      body: { referenceId: unique("order"), amount: { amountMinor: 1500_00, currency: "PHP" }, paymentMethod: { type: "gcash" }, returnUrl: "https://shop.example.ph/orders/7" },
      credential: project.testKey,
    });
    expect(created.status).toBe(201);
    const intentId = created.body.data.paymentIntentId as string;

    // The intent as the API answered its creation, the page to send the payer to included.
    const [waiting] = await deliveryAbout(receiver, "payment_intent.requires_action", intentId);
    const announced = verified(waiting!, endpoint.secret) as Delivered & { data: { nextAction: { type: string; url: string } } };
    expect(announced.data).toEqual(created.body.data);
    expect(announced.data).toMatchObject({ status: "requires_action", paymentMethod: { type: "gcash" } });
    expect(announced.data.nextAction.type).toBe("redirect");

    // The payer opens the announced page and pays.
    expect((await pressOnRedirectPage(announced.data.nextAction.url, "pay")).status).toBe(303);
    const [processing] = await deliveryAbout(receiver, "payment_intent.processing", intentId);
    const [succeeded] = await deliveryAbout(receiver, "payment_intent.succeeded", intentId);
    expect(verified(processing!, endpoint.secret).data).toMatchObject({ status: "processing", paymentMethod: { type: "gcash" }, aggregateVersion: 2 });
    expect(verified(processing!, endpoint.secret).data).not.toHaveProperty("nextAction");
    const read = await api.request("GET", `/api/v1/payments/intents/${intentId}`, { credential: project.testKey });
    expect(verified(succeeded!, endpoint.secret).data).toEqual(read.body.data);
    expect(read.body.data.status).toBe("succeeded");

    // A QR Ph code ready for its payer is announced alike, with the image to show.
    const qr = await api.request("POST", "/api/v1/payments/intents/qrph", {
      body: { referenceId: unique("qr"), amount: { amountMinor: 250_00, currency: "PHP" } },
      credential: project.testKey,
    });
    expect(qr.status).toBe(201);
    const [code] = await deliveryAbout(receiver, "payment_intent.requires_action", qr.body.data.paymentIntentId);
    expect(verified(code!, endpoint.secret).data).toMatchObject({ status: "requires_action", qrCodeImageUrl: qr.body.data.qrCodeImageUrl });
  });

  it("signs with both secrets for a day after a rotation", async () => {
    receiver = await startWebhookReceiver();
    const project = await api.newProject();
    const endpoint = await newEndpoint(api, receiver.url, ["checkout.paid"], project.testKey);
    const rotated = await api.request("POST", `${endpoints}/${endpoint.webhookEndpointId}/rotate-secret`, { credential: project.testKey });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    const overlapHours = (Date.parse(rotated.body.data.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);

    const checkout = await api.paidCheckout(project.testKey);
    const [delivery] = await deliveryAbout(receiver, "checkout.paid", checkout.checkoutId);
    expect(String(delivery!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(delivery!, newSecret).data.checkoutId).toBe(checkout.checkoutId);
    expect(verified(delivery!, endpoint.secret).data.checkoutId).toBe(checkout.checkoutId);
    // The secret is shown on create and rotation only.
    const read = await api.request("GET", `${endpoints}/${endpoint.webhookEndpointId}`, { credential: project.testKey });
    expect(JSON.stringify(read.body)).not.toContain("whsec_");
  });

  it("keeps each project's endpoints, events and deliveries to itself", async () => {
    receiver = await startWebhookReceiver();
    const ours = await api.newProject();
    const theirs = await api.newProject();
    const endpoint = await newEndpoint(api, receiver.url, ["*"], theirs.testKey);
    const checkout = await api.paidCheckout(theirs.testKey);
    const [delivery] = await deliveryAbout(receiver, "checkout.paid", checkout.checkoutId);
    const eventId = String(delivery!.headers["webhook-id"]);

    const as = (path: string, method = "GET") => api.request(method, path, { credential: ours.testKey });
    expectError(await as(`${endpoints}/${endpoint.webhookEndpointId}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await as(`/api/v1/events/${eventId}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await as(`${endpoints}/${endpoint.webhookEndpointId}/deliveries`), 404, "RESOURCE_NOT_FOUND");
    expectError(await as(`${endpoints}/${endpoint.webhookEndpointId}/deliveries/${eventId}/redeliver`, "POST"), 404, "RESOURCE_NOT_FOUND");
    expectError(await as(`${endpoints}/${endpoint.webhookEndpointId}`, "DELETE"), 404, "RESOURCE_NOT_FOUND");
    expect((await as(endpoints)).body.data.webhookEndpoints).toEqual([]);
    expect((await as("/api/v1/events")).body.data.events).toEqual([]);
    // Nor does the other environment of the same project see them.
    expectError(await api.request("GET", `/api/v1/events/${eventId}`, { credential: theirs.liveKey }), 404, "RESOURCE_NOT_FOUND");

    // A checkout of ours never reaches their endpoint: the attempts an event will get are
    // written with it, and their endpoint has none for ours.
    const mine = await api.paidCheckout(ours.testKey);
    const ourEvents = await eventually(async () => {
      const page = await as("/api/v1/events?type=checkout.paid");
      return page.body.data.events.length > 0 ? (page.body.data.events as Delivered[]) : undefined;
    });
    expect(ourEvents.map((event) => event.data.checkoutId)).toEqual([mine.checkoutId]);
    const theirAttempts = await api.request("GET", `${endpoints}/${endpoint.webhookEndpointId}/deliveries`, { credential: theirs.testKey });
    expect(theirAttempts.body.data.deliveries.map((attempt: { eventId: string }) => attempt.eventId)).not.toContain(ourEvents[0]!.id);
    expect(receiver.received.map((received) => received.headers["webhook-id"])).not.toContain(ourEvents[0]!.id);
  });

  it("refuses targets a webhook must not reach: private, loopback and metadata addresses, and plain http for live; link-local, CGNAT and metadata ones even in test mode", async () => {
    const project = await api.newProject();
    const refused = [
      ["http://127.0.0.1:8080/hooks", project.liveKey],
      ["https://169.254.169.254/latest/meta-data", project.liveKey],
      ["https://10.0.0.7/hooks", project.liveKey],
      ["https://[::1]/hooks", project.liveKey],
      ["https://localhost/hooks", project.liveKey],
      ["http://hooks.example.ph/bayad", project.liveKey],
      ["https://169.254.169.254/latest/meta-data", project.testKey],
      // npm start lets test-mode endpoints reach loopback and private addresses, never these.
      ["http://169.254.170.2/v2/credentials", project.testKey],
      ["http://100.100.100.200/latest/meta-data", project.testKey],
      ["http://169.254.10.1/hooks", project.testKey],
      ["http://[64:ff9b::a9fe:a9fe]/hooks", project.testKey],
      ["http://[2002:a9fe:a9fe::]/hooks", project.testKey],
    ] as const;
    for (const [url, credential] of refused) {
      const response = await api.request("POST", endpoints, { body: { url, enabledEvents: ["*"] }, credential });
      expectError(response, 422, "WEBHOOK_URL_NOT_ALLOWED");
      expect(response.body.error.details.join(" ")).toContain("url");
    }
    expect((await api.request("GET", endpoints, { credential: project.liveKey })).body.data.webhookEndpoints).toEqual([]);
    // A public https URL is fine for live mode.
    const live = await api.request("POST", endpoints, { body: { url: "https://hooks.example.ph/bayad", enabledEvents: ["refund.succeeded"] }, credential: project.liveKey });
    expect(live.status).toBe(201);
  });
});

describe("webhooks across a restart", () => {
  let dataDir: string;
  let receiver: WebhookReceiver | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "bayad-webhooks-"));
  });
  afterAll(async () => {
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses no delivery when the platform stops in the middle of retries", async () => {
    receiver = await startWebhookReceiver();
    receiver.answers.push(503);
    // The retry is due well after the platform stops, so it can only be made by the next one.
    const env = { WEBHOOK_RETRY_SCHEDULE: "0s,4s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };
    const first = await startTestPlatform(env, { dataDir });
    const endpoint = await newEndpoint(first, receiver.url, ["checkout.paid"]);
    const checkout = await first.paidCheckout();
    const [failed] = await deliveryAbout(receiver, "checkout.paid", checkout.checkoutId);
    expect(failed!.status).toBe(503);
    await first.close();

    const second = await startTestPlatform(env, { dataDir });
    try {
      const [, retried] = await deliveryAbout(receiver, "checkout.paid", checkout.checkoutId, 2);
      expect(retried!.status).toBe(200);
      // The same event (its data's hosted-page URL is made with the gateway's URL of the moment).
      const [before, after] = [verified(failed!, endpoint.secret), verified(retried!, endpoint.secret)];
      expect({ ...after, data: { ...after.data, checkoutUrl: undefined } }).toEqual({ ...before, data: { ...before.data, checkoutUrl: undefined } });
      const eventId = String(failed!.headers["webhook-id"]);
      const attempts = await deliveriesOf(second, endpoint.webhookEndpointId, eventId);
      expect(attempts.map((attempt) => attempt.status).sort()).toEqual(["failed", "succeeded"]);
    } finally {
      await second.close();
    }
  });
});
