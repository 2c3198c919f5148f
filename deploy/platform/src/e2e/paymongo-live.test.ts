import { createHmac, randomBytes } from "node:crypto";
// jsqr is CommonJS typed as `export default`: under NodeNext the default import is the module object.
import jsqr from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import type { PaymongoSimulator } from "@bayad/paymongo-simulator";
import { createLogger } from "@bayad/kit";
import { eventually, expectError, newIdempotencyKey, unique } from "../test-support/harness.js";
import { LOST_ANSWER_SETTINGS, paymongoLiveSuite } from "../test-support/paymongo-live.js";

/**
 * Live mode end to end against the PayMongo simulator: a project with a live PayMongo account
 * takes a checkout at PayMongo, learns it was paid from PayMongo's signed webhook (or, with the
 * webhook lost, from the reconciler reading PayMongo), shows it in the records feed, and refunds
 * it at PayMongo.
 */
describe("live mode on PayMongo", () => {
  /** Every line the platform logs, at debug level: none may hold a secret. */
  const logLines: string[] = [];
  const suite = paymongoLiveSuite({
    project: "Live shop",
    paymentMethodTypes: ["gcash", "qrph", "card"],
    env: LOST_ANSWER_SETTINGS,
    logger: createLogger("bayad", "debug", { write: (line: string) => void logLines.push(line) }),
  });
  const { live, secretKey } = suite;


  async function liveCheckout() {
    const created = await live("POST", "/api/v1/payments/checkouts", {
      referenceId: unique("live-order"),
      amount: { amountMinor: 250_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    });
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe("pending");
    // The payer pays on PayMongo's page: the checkout URL is the session's, not Bayad's sandbox.
    const checkoutUrl = new URL(created.body.data.checkoutUrl as string);
    expect(checkoutUrl.origin).toBe(new URL(suite.sim.url).origin);
    const sessionId = checkoutUrl.pathname.split("/").pop()!;
    expect(sessionId).toMatch(/^cs_/);
    return { checkoutId: created.body.data.checkoutId as string, sessionId };
  }

  const checkoutStatus = async (checkoutId: string) => (await live("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data.status as string;

  async function feedRecord(id: string) {
    const page = await live("GET", "/api/v1/payments/records?limit=200");
    return (page.body.data.records as Array<{ id: string; status: string }>).find((record) => record.id === id);
  }

  it("takes a checkout at PayMongo, is told by the signed webhook that it was paid, and refunds it at PayMongo", async () => {
    suite.sim.setWebhookDelivery({ mode: "deliver" });
    const { checkoutId, sessionId } = await liveCheckout();
    const session = suite.sim.find(sessionId) as { attributes: { metadata: Record<string, string>; reference_number: string } };
    expect(session.attributes.metadata.bayad_resource_id).toBe(checkoutId);

    const { paymentId } = await suite.sim.payCheckoutSession(sessionId, { method: "gcash" });
    await suite.sim.flushDeliveries();
    // Delivered to the account's webhook URL and taken (2xx) by the gateway, signed as PayMongo signs.
    const delivered = suite.sim.deliveries().filter((delivery) => delivery.type === "checkout_session.payment.paid" && delivery.url.endsWith(`/provider-webhooks/paymongo/${suite.providerAccountId}`));
    expect(delivered.at(-1)?.status).toBe(200);
    await eventually(async () => ((await checkoutStatus(checkoutId)) === "paid" ? true : undefined));
    await eventually(async () => ((await feedRecord(checkoutId))?.status === "paid" ? true : undefined));

    const refund = await live("POST", "/api/v1/payments/refunds", {
      paymentId: checkoutId,
      amount: { amountMinor: 100_00, currency: "PHP" },
      reason: "customer request",
    });
    expect(refund.status).toBe(201);
    expect(refund.body.data.status).toBe("pending");
    const refundId = refund.body.data.refundId as string;
    // PayMongo holds one refund of that payment, made for this Bayad refund.
    const providerRefundId = await eventually(() => findProviderRefund(suite.sim, secretKey, paymentId, refundId));
    await suite.sim.settleRefund(providerRefundId, "succeeded");
    await suite.sim.flushDeliveries();
    expect(suite.sim.deliveries().some((delivery) => delivery.type === "payment.refund.updated" && delivery.status === 200)).toBe(true);
    await eventually(async () => ((await live("GET", `/api/v1/payments/refunds/${refundId}`)).body.data.status === "succeeded" ? true : undefined));
  });

  it("applies a delivery PayMongo sends twice once, answering the second as a duplicate", async () => {
    suite.sim.setWebhookDelivery({ mode: "duplicate" });
    try {
      const { checkoutId, sessionId } = await liveCheckout();
      await suite.sim.payCheckoutSession(sessionId);
      await suite.sim.flushDeliveries();
      const paidDeliveries = suite.sim.deliveries().filter((delivery) => delivery.type === "checkout_session.payment.paid" && delivery.url.endsWith(suite.providerAccountId));
      const ofThisEvent = paidDeliveries.filter((delivery) => delivery.eventId === paidDeliveries.at(-1)!.eventId);
      expect(ofThisEvent.length).toBeGreaterThanOrEqual(2);
      expect(ofThisEvent.every((delivery) => delivery.status === 200)).toBe(true);
      await eventually(async () => ((await checkoutStatus(checkoutId)) === "paid" ? true : undefined));
      const checkout = (await live("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data;
      // created → pending → paid: paid once, not twice.
      expect(checkout.aggregateVersion).toBe(3);
      const events = suite.api.platform.stores.payments.collection<{ _id: string; eventId: string }>({ name: "provider_events" });
      expect(await events.count({ eventId: ofThisEvent[0]!.eventId })).toBe(1);
    } finally {
      suite.sim.setWebhookDelivery({ mode: "deliver" });
    }
  });

  it("settles a checkout and a refund whose webhooks were lost, by reading PayMongo", async () => {
    suite.sim.setWebhookDelivery({ mode: "drop" });
    try {
      const { checkoutId, sessionId } = await liveCheckout();
      const { paymentId } = await suite.sim.payCheckoutSession(sessionId);
      await eventually(async () => ((await checkoutStatus(checkoutId)) === "paid" ? true : undefined), 20_000);

      const refund = await live("POST", "/api/v1/payments/refunds", {
        paymentId: checkoutId,
        amount: { amountMinor: 250_00, currency: "PHP" },
        reason: "duplicate",
      });
      const refundId = refund.body.data.refundId as string;
      const providerRefundId = await eventually(() => findProviderRefund(suite.sim, secretKey, paymentId, refundId));
      await suite.sim.settleRefund(providerRefundId, "succeeded");
      await eventually(async () => ((await live("GET", `/api/v1/payments/refunds/${refundId}`)).body.data.status === "succeeded" ? true : undefined), 20_000);
    } finally {
      suite.sim.setWebhookDelivery({ mode: "deliver" });
    }
  });

  it("makes a QR Ph code at PayMongo, serves PayMongo's image at qrCodeImageUrl, and is told when it is paid", async () => {
    const created = await live("POST", "/api/v1/payments/intents/qrph", {
      referenceId: unique("qr-order"),
      amount: { amountMinor: 180_00, currency: "PHP" },
      description: "Two iced coffees",
      expirySeconds: 600,
    });
    expect(created.status).toBe(201);
    const intent = created.body.data;
    expect(intent.status).toBe("awaiting_next_action");
    expect(intent.qrCodeImageUrl).toMatch(new RegExp(`^${suite.api.platform.gatewayUrl}/qrph/${intent.paymentIntentId}\\.png\\?token=`));
    const image = await fetch(intent.qrCodeImageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const png = PNG.sync.read(Buffer.from(await image.arrayBuffer()));
    expect(jsqr.default(Uint8ClampedArray.from(png.data), png.width, png.height)).not.toBeNull();
    // Without its token the image is not there.
    expect((await fetch(intent.qrCodeImageUrl.replace(/token=.*/, "token=wrong"))).status).toBe(404);

    // The PayMongo intent behind it (Bayad keeps its id as the provider reference), paid by the payer's bank app.
    const stored = await suite.api.platform.stores.payments.collection<{ _id: string; providerReference: string }>({ name: "payment_intents" }).findOne({ _id: intent.paymentIntentId });
    const providerIntent = suite.sim.find(stored!.providerReference) as { attributes: { metadata: Record<string, string>; payment_method_allowed: string[] } };
    expect(providerIntent.attributes.metadata.bayad_resource_id).toBe(intent.paymentIntentId);
    expect(providerIntent.attributes.payment_method_allowed).toEqual(["qrph"]);
    await suite.sim.payPaymentIntent(stored!.providerReference, { method: "qrph" });
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/intents/${intent.paymentIntentId}`)).body.data.status === "succeeded" ? true : undefined));
  });

  it("recovers a checkout whose session answer was lost: the create sent again gets the session made, and paying it pays the checkout", async () => {
    const body = {
      referenceId: unique("lost-order"),
      amount: { amountMinor: 120_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    };
    // PayMongo makes the session, and the answer never arrives: the adapter sends the create again
    // under the same Idempotency-Key, and PayMongo answers with that session.
    suite.sim.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "reset", afterProcessing: true, times: 1 });
    const created = await suite.api.request("POST", "/api/v1/payments/checkouts", { body, idempotencyKey: newIdempotencyKey(), credential: suite.project.liveKey });
    expect(created.status).toBe(201);
    const settled = created.body.data;
    const sessionId = new URL(settled.checkoutUrl as string).pathname.split("/").pop()!;
    const sessions = (suite.sim.objects("checkout_session") as Array<{ id: string; attributes: { metadata: Record<string, string> | null } }>).filter(
      (session) => session.attributes.metadata?.bayad_resource_id === settled.checkoutId,
    );
    expect(sessions.map((session) => session.id)).toEqual([sessionId]);
    await suite.sim.payCheckoutSession(sessionId);
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await checkoutStatus(settled.checkoutId)) === "paid" ? true : undefined));
  });

  it("asks for a refund whose answer was lost again without refunding twice", async () => {
    const { checkoutId, sessionId } = await liveCheckout();
    const { paymentId } = await suite.sim.payCheckoutSession(sessionId);
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await checkoutStatus(checkoutId)) === "paid" ? true : undefined));

    // PayMongo makes the refund, and the answer never arrives.
    suite.sim.injectFault({ method: "POST", path: "/v1/refunds", status: "reset", afterProcessing: true, times: 1 });
    const refund = await live("POST", "/api/v1/payments/refunds", { paymentId: checkoutId, amount: { amountMinor: 50_00, currency: "PHP" }, reason: "requested_by_customer" });
    expect(refund.status).toBe(201);
    const refundId = refund.body.data.refundId as string;
    // Asked again under the same Idempotency-Key, PayMongo answers with the refund it made, and makes none other.
    const stored = suite.api.platform.stores.payments.collection<{ _id: string; providerReference?: string }>({ name: "refunds" });
    await eventually(async () => ((await stored.findOne({ _id: refundId }))?.providerReference ? true : undefined), 20_000);
    const auth = { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` };
    const atPaymongo = (await (await fetch(`${suite.sim.url}/v1/refunds?payment_id=${paymentId}`, { headers: auth })).json()) as { data: Array<{ id: string }> };
    expect(atPaymongo.data).toHaveLength(1);
    expect((await stored.findOne({ _id: refundId }))?.providerReference).toBe(atPaymongo.data[0]!.id);
  });

  it("refuses a card payment intent in live mode, pointing at checkouts, and writes nothing", async () => {
    const referenceId = unique("card-order");
    const response = await live("POST", "/api/v1/payments/intents", { referenceId, amount: { amountMinor: 100_00, currency: "PHP" } });
    expectError(response, 422, "PROVIDER_REJECTED");
    expect(response.body.error.message).toMatch(/checkout/);
    expect(await suite.api.platform.stores.payments.collection({ name: "payment_intents" }).count({ referenceId })).toBe(0);
  });

  it("refuses every delivery it cannot verify with one 401 saying nothing of why, counts the reason, and changes nothing", async () => {
    const { checkoutId, sessionId } = await liveCheckout();
    const now = Math.floor(Date.now() / 1000);
    const eventOf = (livemode: boolean) =>
      JSON.stringify({
        data: {
          id: `evt_${randomBytes(12).toString("hex")}`,
          type: "event",
          attributes: {
            type: "checkout_session.payment.paid",
            livemode,
            data: { id: sessionId, type: "checkout_session", attributes: { metadata: { bayad_resource_id: checkoutId }, payments: [{ id: "pay_forged", type: "payment", attributes: { status: "paid" } }] } },
            created_at: now,
            updated_at: now,
          },
        },
      });
    const body = eventOf(true);
    const testEvent = eventOf(false);
    const account = await suite.api.admin("GET", `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`);
    const webhookSecret = (suite.sim.find(account.body.data.webhook.webhookId as string) as { attributes: { secret_key: string } }).attributes.secret_key;
    const sign = (secret: string, t: number, payload: string) => createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
    const ours = `/provider-webhooks/paymongo/${suite.providerAccountId}`;
    const attempts: Array<[reason: string, path: string, signature: string | undefined, payload: string]> = [
      // Signed with a secret that is not the webhook's.
      ["mismatch", ours, `t=${now},te=,li=${sign("whsk_not_the_secret", now, body)}`, body],
      ["missing_header", ours, undefined, body],
      ["malformed_header", ours, `t=${now},li=not-hex`, body],
      ["timestamp_too_old", ours, `t=${now - 3600},te=,li=${sign(webhookSecret, now - 3600, body)}`, body],
      ["wrong_mode", ours, `t=${now},te=${sign(webhookSecret, now, body)},li=`, body],
      ["event_mode_mismatch", ours, `t=${now},te=,li=${sign(webhookSecret, now, testEvent)}`, testEvent],
      ["unknown_account", "/provider-webhooks/paymongo/pa_NoSuchAccount0123456789ab", `t=${now},te=,li=${sign(webhookSecret, now, body)}`, body],
      ["unknown_account", "/provider-webhooks/paymongo/nope", `t=${now},te=,li=${sign(webhookSecret, now, body)}`, body],
    ];
    const refusals = async () => {
      const text = await (await fetch(suite.api.platform.metricsUrl)).text();
      return (reason: string) => Number(new RegExp(`^bayad_provider_webhook_refusals_total\\{provider="paymongo",reason="${reason}"\\} (\\d+)$`, "m").exec(text)?.[1]);
    };
    const before = await refusals();
    const answers: unknown[] = [];
    for (const [reason, path, signature, payload] of attempts) {
      const response = await suite.api.request("POST", path, {
        rawBody: payload,
        credential: null,
        idempotencyKey: null,
        headers: { "Content-Type": "application/json", ...(signature !== undefined ? { "Paymongo-Signature": signature } : {}) },
        unchecked: true,
      });
      expectError(response, 401, "INVALID_CREDENTIALS");
      const { meta: _meta, ...answer } = response.body as { meta: unknown };
      answers.push(answer);
      expect(answer, reason).toEqual({ success: false, error: { code: "INVALID_CREDENTIALS", message: "The signature could not be verified." } });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const after = await refusals();
    for (const reason of ["mismatch", "missing_header", "malformed_header", "timestamp_too_old", "wrong_mode", "event_mode_mismatch"]) {
      expect(after(reason) - before(reason), reason).toBe(1);
    }
    expect(after("unknown_account") - before("unknown_account")).toBe(2);
    // The log says why; never with the secret or a signature.
    const refusedLines = logLines.filter((line) => line.includes("provider webhook refused"));
    expect(refusedLines.some((line) => line.includes('"reason":"timestamp_too_old"'))).toBe(true);
    expect(refusedLines.join("\n")).not.toContain(webhookSecret);
    expect(refusedLines.join("\n")).not.toContain(sign(webhookSecret, now, body));
    expect(await checkoutStatus(checkoutId)).toBe("pending");
  });

  it("shows the account without its secrets", async () => {
    const account = await suite.api.admin("GET", `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`);
    expect(account.status).toBe(200);
    expect(account.body.data).toMatchObject({ providerAccountId: suite.providerAccountId, provider: "paymongo", secretKeyLast4: secretKey.slice(-4), webhook: { status: "enabled" } });
    const text = JSON.stringify(account.body);
    expect(text).not.toContain(secretKey);
    expect(text).not.toMatch(/whsk_/);
  });

  it("enables again a webhook PayMongo disabled", async () => {
    const account = await suite.api.admin("GET", `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`);
    const webhookId = account.body.data.webhook.webhookId as string;
    const auth = { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` };
    const disabled = await fetch(`${suite.sim.url}/v1/webhooks/${webhookId}/disable`, { method: "POST", headers: auth });
    expect(disabled.status).toBe(200);
    await eventually(async () => {
      const webhook = (await (await fetch(`${suite.sim.url}/v1/webhooks/${webhookId}`, { headers: auth })).json()) as { data: { attributes: { status: string } } };
      return webhook.data.attributes.status === "enabled" ? true : undefined;
    }, 20_000);
  });

  it("logs neither the account's secret key nor its webhook secret", async () => {
    const account = await suite.api.admin("GET", `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`);
    const webhook = suite.sim.find(account.body.data.webhook.webhookId as string) as { attributes: { secret_key: string } };
    const webhookSecret = webhook.attributes.secret_key;
    expect(webhookSecret).toMatch(/^whsk_/);
    // The earlier tests logged the put, deliveries, applications and reconciliation rounds.
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.some((line) => line.includes("provider webhook received"))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(secretKey);
      expect(line).not.toContain(secretKey.slice(8));
      expect(line).not.toContain(webhookSecret);
    }
  });

  it("registers the webhook again when PayMongo no longer has it, and its deliveries verify", async () => {
    // The account as it would stand if PayMongo had lost its webhook: it names one PayMongo does not have.
    const accounts = suite.api.platform.stores.payments.collection<{ _id: string; webhook: { webhookId: string } }>({ name: "provider_accounts" });
    await accounts.updateOne({ _id: suite.providerAccountId }, { $set: { "webhook.webhookId": "hook_gone000000000000000000" } });
    const registered = await eventually(async () => {
      const account = (await accounts.findOne({ _id: suite.providerAccountId }))!;
      return account.webhook.webhookId !== "hook_gone000000000000000000" ? account.webhook.webhookId : undefined;
    }, 20_000);
    expect(registered).toMatch(/^hook_/);
    expect((await suite.api.admin("GET", `/admin/v1/projects/${suite.project.projectId}/provider-accounts/live`)).body.data.webhook.webhookId).toBe(registered);
    const { checkoutId, sessionId } = await liveCheckout();
    await suite.sim.payCheckoutSession(sessionId);
    await suite.sim.flushDeliveries();
    expect(suite.sim.deliveries().filter((delivery) => delivery.type === "checkout_session.payment.paid").at(-1)?.status).toBe(200);
    await eventually(async () => ((await checkoutStatus(checkoutId)) === "paid" ? true : undefined));
  });

  it("answers PROVIDER_NOT_CONFIGURED for a live key of a project without a provider account", async () => {
    const other = await suite.api.newProject("No account");
    const response = await suite.api.request("POST", "/api/v1/payments/checkouts", {
      credential: other.liveKey,
      body: { referenceId: unique("order"), amount: { amountMinor: 100_00, currency: "PHP" }, successUrl: "https://a.example/ok", cancelUrl: "https://a.example/no" },
    });
    expectError(response, 409, "PROVIDER_NOT_CONFIGURED");
  });
});

/** The PayMongo refund of payment `paymentId` that Bayad made for its refund `refundId` (by its metadata), if any yet. */
async function findProviderRefund(sim: PaymongoSimulator, secretKey: string, paymentId: string, refundId: string): Promise<string | undefined> {
  const response = await fetch(`${sim.url}/v1/refunds?payment_id=${paymentId}`, {
    headers: { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` },
  });
  const list = (await response.json()) as { data: Array<{ id: string; attributes: { metadata?: Record<string, string> } }> };
  return list.data.find((refund) => refund.attributes.metadata?.bayad_resource_id === refundId)?.id;
}
