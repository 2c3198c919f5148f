import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InThreadPlatform } from "@bayad/platform";
import { Bayad, webhooks, WebhookVerificationError, type BayadEvent } from "./index.js";
import { eventually, startTestPlatform, unique } from "./test-support/platform.js";
import { startReceiver } from "./test-support/webhook-receiver.js";

/** Webhook endpoints, events and deliveries through the SDK, and webhooks.verify on a real delivery. */
describe("webhooks", () => {
  let platform: InThreadPlatform;
  let bayad: Bayad;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    platform = await startTestPlatform({ WEBHOOK_RETRY_SCHEDULE: "0s,1s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
    bayad = new Bayad({ apiKey: platform.testApiKey, baseUrl: platform.gatewayUrl });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await platform?.close();
  });

  it("verifies a real delivery's headers and body into the typed event, and refuses a changed body", async () => {
    const endpoint = await bayad.webhookEndpoints.create({ url: receiver.url, enabledEvents: ["checkout.paid"], description: "orders" });
    const checkout = await bayad.checkouts.create({
      referenceId: unique("order"),
      amount: { amountMinor: 1250_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/ok",
      cancelUrl: "https://shop.example.ph/no",
    });
    await bayad.testHelpers.checkouts.pay(checkout.checkoutId);
    const delivery = await eventually(async () =>
      receiver.received.find((each) => each.body.toString().includes(checkout.checkoutId)),
    );

    const event: BayadEvent = webhooks.verify(delivery.body, delivery.headers, endpoint.secret);
    expect(event.type).toBe("checkout.paid");
    if (event.type !== "checkout.paid") throw new Error("narrowed by type");
    expect(event.data).toMatchObject({ checkoutId: checkout.checkoutId, status: "paid" });
    expect(event.id).toBe(delivery.headers["webhook-id"]);
    expect(await bayad.events.get(event.id)).toEqual(event);
    // The same check with the body as text and the headers as fetch's Headers.
    expect(bayad.webhooks.verify(delivery.body.toString(), new Headers(delivery.headers as Record<string, string>), endpoint.secret).id).toBe(event.id);

    const changed = delivery.body.toString().replace('"paid"', '"failed"');
    expect(() => webhooks.verify(changed, delivery.headers, endpoint.secret)).toThrow(WebhookVerificationError);
    expect(() => webhooks.verify(delivery.body, delivery.headers, "whsec_" + Buffer.from("another secret").toString("base64"))).toThrow(
      WebhookVerificationError,
    );

    const attempts = await bayad.webhookEndpoints.listDeliveries(endpoint.webhookEndpointId, { eventId: event.id }).toArray();
    expect(attempts.map((attempt) => attempt.status)).toContain("succeeded");
  });

  it("manages an endpoint: list over pages, update, rotate, test, redeliver, delete", async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await bayad.webhookEndpoints.create({ url: receiver.url, enabledEvents: ["*"], description: `endpoint ${i}` }));
    }
    const listed = [];
    for await (const endpoint of bayad.webhookEndpoints.list({ limit: 1 })) listed.push(endpoint.webhookEndpointId);
    for (const endpoint of made) expect(listed).toContain(endpoint.webhookEndpointId);

    const [first] = made;
    const updated = await bayad.webhookEndpoints.update(first!.webhookEndpointId, { description: "renamed" });
    expect(updated.description).toBe("renamed");
    const rotated = await bayad.webhookEndpoints.rotateSecret(first!.webhookEndpointId);
    expect(rotated.secret).not.toBe(first!.secret);
    const test = await bayad.webhookEndpoints.sendTest(first!.webhookEndpointId);
    expect(test.event.type).toBe("webhook.test");
    const delivered = await eventually(async () => receiver.received.find((each) => each.headers["webhook-id"] === test.event.id));
    // Signed with the new secret (and the old one, for a day).
    expect(webhooks.verify(delivered.body, delivered.headers, rotated.secret).type).toBe("webhook.test");
    expect(webhooks.verify(delivered.body, delivered.headers, first!.secret).type).toBe("webhook.test");
    const again = await bayad.webhookEndpoints.redeliver(first!.webhookEndpointId, test.event.id);
    expect(again).toMatchObject({ eventId: test.event.id, redelivery: true });

    const events = [];
    for await (const event of bayad.events.list({ type: "webhook.test", limit: 1 })) events.push(event.id);
    expect(events).toContain(test.event.id);

    const deleted = await bayad.webhookEndpoints.delete(first!.webhookEndpointId);
    expect(deleted.deleted).toBe(true);
    await expect(bayad.webhookEndpoints.get(first!.webhookEndpointId)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });
});
