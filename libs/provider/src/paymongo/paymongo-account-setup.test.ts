import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPaymongoAccountSetup, type ProviderAccountSetup } from "./paymongo-account-setup.js";
import { createPaymongoClient } from "./paymongo-client.js";
import { parsePaymongoEvent, PAYMONGO_WEBHOOK_EVENTS } from "./paymongo-event.js";
import { createPaymongoProvider } from "./paymongo-provider.js";
import { verifyPaymongoSignature } from "./paymongo-signature.js";
import { closedPortUrl, context, newLiveKey, newTestKey, php, thrownBy } from "./test-support/simulator-fixture.js";

let simulator: PaymongoSimulator;
let setup: ProviderAccountSetup;

beforeAll(async () => {
  simulator = await startPaymongoSimulator({ retrySchedule: [50, 50] });
  setup = createPaymongoAccountSetup({ apiBase: simulator.url, responseTimeoutMs: 2_000 });
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await simulator.close();
});

const hookUrl = (n: number | string) => `https://bayad.example/provider-webhooks/paymongo/pa_${n}`;

describe("checkKey", () => {
  it("accepts a key PayMongo accepts", async () => {
    await expect(setup.checkKey(newTestKey())).resolves.toBeUndefined();
    await expect(setup.checkKey(newLiveKey())).resolves.toBeUndefined();
  });

  it("refuses a key PayMongo refuses with VALIDATION_FAILED naming secretKey, and never the key itself", async () => {
    const key = "sk_live_tooShortK9x2";
    const error = await thrownBy(() => setup.checkKey(key));
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^secretKey: /)] });
    expect(JSON.stringify({ message: (error as Error).message, details: (error as { details: unknown }).details })).not.toContain(key);
    expect((error as { details: string[] }).details[0]).toContain("K9x2");
  });

  it("is PROVIDER_UNAVAILABLE when PayMongo cannot be reached", async () => {
    const unreachable = createPaymongoAccountSetup({ apiBase: await closedPortUrl() });
    await expect(unreachable.checkKey(newTestKey())).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
  });
});

describe("webhooks", () => {
  it("registers Bayad's webhook for its events and answers its whsk_ secret", async () => {
    const key = newLiveKey();
    const registered = await setup.registerWebhook(key, hookUrl(1));
    expect(registered).toEqual({ webhookId: expect.stringMatching(/^hook_/), webhookSecret: expect.stringMatching(/^whsk_/), status: "enabled" });
    expect(simulator.find(registered.webhookId)).toMatchObject({
      attributes: { url: hookUrl(1), events: [...PAYMONGO_WEBHOOK_EVENTS], livemode: true, status: "enabled" },
    });
    expect(await setup.getWebhook(key, registered.webhookId)).toEqual({ status: "enabled", url: hookUrl(1) });
  });

  it("takes over the webhook already at the URL rather than making a second, and enables it", async () => {
    const key = newTestKey();
    const first = await setup.registerWebhook(key, hookUrl(2));
    await setup.disableWebhook(key, first.webhookId);
    const again = await setup.registerWebhook(key, hookUrl(2));
    expect(again).toEqual({ ...first, status: "enabled" });
    expect((await setup.getWebhook(key, first.webhookId)).status).toBe("enabled");
  });

  it("finds the webhook a registration made when its answer was lost", async () => {
    const key = newTestKey();
    const lossy = createPaymongoAccountSetup({ apiBase: simulator.url, responseTimeoutMs: 300 });
    simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: "timeout", afterProcessing: true });
    const registered = await lossy.registerWebhook(key, hookUrl(3));
    expect(registered.webhookSecret).toMatch(/^whsk_/);
    const client = createPaymongoClient({ apiBase: simulator.url, secretKey: key });
    try {
      const listed = await client.get("/v1/webhooks", "listWebhooks");
      expect(listed.data).toEqual([expect.objectContaining({ id: registered.webhookId })]);
    } finally {
      await client.close();
    }
  });

  it("disables and enables, and shows why a webhook is disabled", async () => {
    const key = newTestKey();
    const { webhookId } = await setup.registerWebhook(key, hookUrl(4));
    await setup.disableWebhook(key, webhookId);
    expect(await setup.getWebhook(key, webhookId)).toEqual({ status: "disabled", disabledReason: "disabled_by_merchant", url: hookUrl(4) });
    await setup.enableWebhook(key, webhookId);
    expect(await setup.getWebhook(key, webhookId)).toEqual({ status: "enabled", url: hookUrl(4) });
  });

  it("refuses another account's webhook with PROVIDER_REJECTED", async () => {
    const { webhookId } = await setup.registerWebhook(newTestKey(), hookUrl(5));
    await expect(setup.getWebhook(newTestKey(), webhookId)).rejects.toMatchObject({ code: "PROVIDER_REJECTED" });
  });
});

describe("a delivery to the registered webhook", () => {
  let receiver: Server;
  const received: Array<{ body: string; signature: string | undefined }> = [];
  let receiverUrl = "";

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ body: Buffer.concat(chunks).toString("utf8"), signature: req.headers["paymongo-signature"] as string | undefined });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/provider-webhooks/paymongo/pa_live`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it("verifies with the secret registration answered, in li for a live account, and parses", async () => {
    const key = newLiveKey();
    const { webhookSecret } = await setup.registerWebhook(key, receiverUrl);
    const client = createPaymongoClient({ apiBase: simulator.url, secretKey: key });
    try {
      const provider = createPaymongoProvider({ client, paymentMethodTypes: ["gcash"], livemode: true });
      const session = await provider.createCheckoutSession(
        { checkoutId: "chk_hook", referenceId: "order-hook", amount: php(20_000), successUrl: "https://s.example/ok", cancelUrl: "https://s.example/no", metadata: {} },
        context(),
      );
      await simulator.payCheckoutSession(session.providerReference);
      await simulator.flushDeliveries();
    } finally {
      await client.close();
    }

    const paid = received.map((delivery) => ({ ...delivery, event: parsePaymongoEvent(delivery.body) })).find((d) => d.event.type === "checkout_session.payment.paid");
    expect(paid).toBeDefined();
    // A paid session still reads active at PayMongo; its payment is paid.
    expect(paid!.event).toMatchObject({ livemode: true, data: { type: "checkout_session", attributes: { status: "active", payments: [{ attributes: { status: "paid" } }] } } });
    expect(verifyPaymongoSignature({ header: paid!.signature, rawBody: paid!.body, secret: webhookSecret, livemode: true })).toMatchObject({ valid: true });
    // Checked as a test account's, the same delivery does not verify; nor with another secret.
    expect(verifyPaymongoSignature({ header: paid!.signature, rawBody: paid!.body, secret: webhookSecret, livemode: false }).valid).toBe(false);
    expect(verifyPaymongoSignature({ header: paid!.signature, rawBody: paid!.body, secret: "whsk_other", livemode: true }).valid).toBe(false);
  });
});
