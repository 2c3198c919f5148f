// jsqr is CommonJS typed as `export default`: under NodeNext the default import is the module
// object, whose `default` is the decoder.
import jsqr from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseQrPhPayload } from "@bayad/provider";
import { eventually, newIdempotencyKey, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { expectMovesPublished, withEventCapture } from "../test-support/event-capture.js";

const intents = "/api/v1/payments/intents";
const helpers = "/api/v1/payments/test-helpers/intents";

function intentBody(amountMinor = 999_00) {
  return { referenceId: unique("order"), amount: { amountMinor, currency: "PHP" } };
}

function qrBody(extra: Record<string, unknown> = {}) {
  return { ...intentBody(250_00), description: "Two iced coffees", ...extra };
}

describe("payment intents", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform({
      PROVIDER_TIMEOUT_MS: "150",
      SANDBOX_SILENCE_MS: "400",
      PAYMENTS_RECONCILE_INTERVAL_MS: "100",
    });
  });
  afterAll(() => api.close());

  async function create(amountMinor?: number) {
    const created = await api.request("POST", intents, { body: intentBody(amountMinor) });
    expect(created.status).toBe(201);
    return created.body.data;
  }

  async function createQr(extra?: Record<string, unknown>) {
    const created = await api.request("POST", `${intents}/qrph`, { body: qrBody(extra) });
    expect(created.status).toBe(201);
    return created.body.data;
  }

  const post = (path: string, credential?: string) => api.request("POST", path, credential ? { credential } : {});

  async function expectIllegal(path: string) {
    const response = await post(path);
    expect(response.status, path).toBe(409);
    expect(response.body.error.code, path).toBe("INVALID_STATE_TRANSITION");
  }

  describe("createPaymentIntent and getPaymentIntent", () => {
    it("answers 201 with an intent in requires_action, read back the same", async () => {
      const body = intentBody();
      const created = await api.request("POST", intents, { body });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        paymentIntentId: expect.stringMatching(/^pi_[A-Za-z0-9_]+$/),
        referenceId: body.referenceId,
        status: "requires_action",
        amount: { amountMinor: 999_00, currency: "PHP" },
        aggregateVersion: 1,
        // Test mode without a provider account: the sandbox took it.
        provider: "sandbox",
        // Not paid yet: no fee, no net.
        fee: null,
        netAmount: null,
      });
      const read = await api.request("GET", `${intents}/${created.body.data.paymentIntentId}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(created.body.data);
    });

    it("replays the intent it created for a repeated Idempotency-Key", async () => {
      const key = newIdempotencyKey();
      const body = intentBody();
      const first = await api.request("POST", intents, { body, idempotencyKey: key });
      const again = await api.request("POST", intents, { body, idempotencyKey: key });
      expect(again.status).toBe(201);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(again.body.data).toEqual(first.body.data);
      expect(await api.platform.stores.payments.collection({ name: "payment_intents" }).count({ referenceId: body.referenceId })).toBe(1);
    });

    it("refuses live mode while no live provider is configured, writing nothing", async () => {
      const project = await api.newProject();
      for (const [path, body] of [[intents, intentBody()], [`${intents}/qrph`, qrBody()]] as const) {
        const live = await api.request("POST", path, { body, credential: project.liveKey });
        expect(live.status, path).toBe(409);
        expect(live.body.error.code, path).toBe("PROVIDER_NOT_CONFIGURED");
        expect(await api.platform.stores.payments.collection({ name: "payment_intents" }).count({ referenceId: body.referenceId })).toBe(0);
      }
    });

    it("answers 404 for an unknown id and for another project's intent", async () => {
      const intent = await create();
      const other = await api.newProject();
      expect((await api.request("GET", `${intents}/pi_unknown`)).status).toBe(404);
      const foreign = await api.request("GET", `${intents}/${intent.paymentIntentId}`, { credential: other.testKey });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe("RESOURCE_NOT_FOUND");
    });
  });

  describe("state machine", () => {
    it("confirm → processing, succeed → succeeded; a succeeded intent cannot be cancelled or confirmed", async () => {
      const intent = await create();
      const confirmed = await post(`${intents}/${intent.paymentIntentId}/confirm`);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data).toMatchObject({ status: "processing", aggregateVersion: 2 });
      await expectIllegal(`${intents}/${intent.paymentIntentId}/confirm`);
      await expectIllegal(`${intents}/${intent.paymentIntentId}/cancel`);

      const succeeded = await post(`${helpers}/${intent.paymentIntentId}/succeed`);
      expect(succeeded.status).toBe(200);
      expect(succeeded.body.data).toMatchObject({ status: "succeeded", aggregateVersion: 3 });
      await expectIllegal(`${intents}/${intent.paymentIntentId}/cancel`);
      await expectIllegal(`${intents}/${intent.paymentIntentId}/confirm`);
      await expectIllegal(`${helpers}/${intent.paymentIntentId}/fail`);
      expect((await api.request("GET", `${intents}/${intent.paymentIntentId}`)).body.data.status).toBe("succeeded");
    });

    it("cancels a requires_action intent; a cancelled intent cannot be confirmed, cancelled or paid", async () => {
      const intent = await create();
      const cancelled = await post(`${intents}/${intent.paymentIntentId}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: "cancelled", aggregateVersion: 2 });
      await expectIllegal(`${intents}/${intent.paymentIntentId}/confirm`);
      await expectIllegal(`${intents}/${intent.paymentIntentId}/cancel`);
      await expectIllegal(`${helpers}/${intent.paymentIntentId}/succeed`);
    });

    it("the test helpers move only a processing intent: not one still requiring action", async () => {
      const intent = await create();
      await expectIllegal(`${helpers}/${intent.paymentIntentId}/succeed`);
      await expectIllegal(`${helpers}/${intent.paymentIntentId}/fail`);
      await post(`${intents}/${intent.paymentIntentId}/confirm`);
      const failed = await post(`${helpers}/${intent.paymentIntentId}/fail`);
      expect(failed.body.data.status).toBe("failed");
      await expectIllegal(`${helpers}/${intent.paymentIntentId}/succeed`);
      await expectIllegal(`${intents}/${intent.paymentIntentId}/cancel`);
    });

    it("decline: confirming a 1002-centavo intent fails it", async () => {
      const intent = await create(1002);
      const confirmed = await post(`${intents}/${intent.paymentIntentId}/confirm`);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.data).toMatchObject({ status: "failed", aggregateVersion: 2 });
      await expectIllegal(`${helpers}/${intent.paymentIntentId}/succeed`);
    });

    it("refuses the test helpers with live credentials, and for another project's intent", async () => {
      const intent = await create();
      await post(`${intents}/${intent.paymentIntentId}/confirm`);
      const project = await api.newProject();
      const live = await post(`${helpers}/${intent.paymentIntentId}/succeed`, project.liveKey);
      expect(live.status).toBe(403);
      expect(live.body.error.code).toBe("TEST_MODE_ONLY");
      const foreign = await post(`${helpers}/${intent.paymentIntentId}/succeed`, project.testKey);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe("RESOURCE_NOT_FOUND");
      expect((await api.request("GET", `${intents}/${intent.paymentIntentId}`)).body.data.status).toBe("processing");
    });

    it("publishes every move through the outbox with a growing aggregateVersion and its snapshot", async () => {
      await withEventCapture(api.platform.bus, async (captured) => {
        const intent = await create();
        await post(`${intents}/${intent.paymentIntentId}/confirm`);
        await post(`${helpers}/${intent.paymentIntentId}/succeed`);
        const last = await expectMovesPublished(captured, intent.paymentIntentId, [
          ["bayad.events.payments.payment_intent.requires_action", 1],
          ["bayad.events.payments.payment_intent.processing", 2],
          ["bayad.events.payments.payment_intent.succeeded", 3],
        ]);
        expect(last.snapshot.case === "paymentIntent" && last.snapshot.value.paymentIntentId).toBe(intent.paymentIntentId);
      });
    });
  });

  describe("QR Ph payment intents", () => {
    it("answers 201 awaiting_next_action with the QR image URL, expiring after the default 1800 seconds", async () => {
      const body = qrBody();
      const before = Date.now();
      const created = await api.request("POST", `${intents}/qrph`, { body });
      expect(created.status).toBe(201);
      const qr = created.body.data;
      expect(qr).toMatchObject({
        referenceId: body.referenceId,
        status: "awaiting_next_action",
        amount: { amountMinor: 250_00, currency: "PHP" },
        expirySeconds: 1800,
        aggregateVersion: 1,
      });
      expect(qr.qrCodeImageUrl).toMatch(new RegExp(`^${api.platform.gatewayUrl}/sandbox/qrph/${qr.paymentIntentId}\\.png\\?token=`));
      expect(Date.parse(qr.expiresAt)).toBeGreaterThanOrEqual(before + 1800_000);
    });

    it("reads as requires_action until paid, then succeeded; it cannot be confirmed", async () => {
      const qr = await createQr({ expirySeconds: 900 });
      expect(qr.expirySeconds).toBe(900);
      const read = await api.request("GET", `${intents}/${qr.paymentIntentId}`);
      expect(read.body.data).toMatchObject({ status: "requires_action", aggregateVersion: 1, qrCodeImageUrl: qr.qrCodeImageUrl });
      await expectIllegal(`${intents}/${qr.paymentIntentId}/confirm`);
      const paid = await post(`${helpers}/${qr.paymentIntentId}/succeed`);
      expect(paid.body.data).toMatchObject({ status: "succeeded", aggregateVersion: 2 });
      // A paid code is no longer shown.
      expect(paid.body.data.qrCodeImageUrl).toBeUndefined();
      await expectIllegal(`${intents}/${qr.paymentIntentId}/cancel`);
    });

    it("cancels an unpaid QR Ph intent", async () => {
      const qr = await createQr();
      expect((await post(`${intents}/${qr.paymentIntentId}/cancel`)).body.data.status).toBe("cancelled");
      await expectIllegal(`${helpers}/${qr.paymentIntentId}/succeed`);
    });

    it("refuses an expirySeconds outside 60 to 9000 and a description over 255 characters", async () => {
      for (const extra of [{ expirySeconds: 59 }, { expirySeconds: 9001 }, { description: "d".repeat(256) }]) {
        const response = await api.request("POST", `${intents}/qrph`, { body: qrBody(extra) });
        expect(response.status, JSON.stringify(extra)).toBe(400);
        expect(response.body.error.code).toBe("VALIDATION_FAILED");
      }
    });

    it("refuses, naming the field, a reference or an amount a QR Ph code cannot carry", async () => {
      for (const [extra, field] of [
        [{ referenceId: "注文" }, "referenceId"],
        [{ referenceId: "\t" }, "referenceId"],
        [{ amount: { amountMinor: 1_000_000_000_000, currency: "PHP" } }, "amount.amountMinor"],
      ] as const) {
        const response = await api.request("POST", `${intents}/qrph`, { body: qrBody(extra) });
        expect(response.status, JSON.stringify(extra)).toBe(400);
        expect(response.body.error.code).toBe("VALIDATION_FAILED");
        expect(response.body.error.details).toEqual([expect.stringMatching(new RegExp(`^(body\\.)?${field.replace(".", "\\.")}\\b`))]);
      }
      const largest = await createQr({ amount: { amountMinor: 999_999_999_999, currency: "PHP" }, referenceId: "Parañaque" });
      expect(largest).toMatchObject({ amount: { amountMinor: 999_999_999_999 }, referenceId: "Parañaque" });
    });

    it("serves the QR image at qrCodeImageUrl, decoding to a QR Ph payload of this intent", async () => {
      const qr = await createQr();
      const response = await fetch(qr.qrCodeImageUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      const png = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
      const decoded = jsqr.default(Uint8ClampedArray.from(png.data), png.width, png.height);
      expect(decoded).not.toBeNull();
      expect(parseQrPhPayload(decoded!.data)).toMatchObject({
        amountMinor: 250_00,
        currency: "PHP",
        referenceId: qr.referenceId.slice(0, 25),
        paymentIntentId: qr.paymentIntentId,
        crcValid: true,
      });
    });

    it("answers 404 for the image with a wrong or missing token", async () => {
      const qr = await createQr();
      const url = new URL(qr.qrCodeImageUrl);
      const token = url.searchParams.get("token")!;
      url.searchParams.set("token", "x".repeat(token.length));
      expect((await fetch(url)).status).toBe(404);
      url.searchParams.delete("token");
      expect((await fetch(url)).status).toBe(404);
    });

    it("stays awaiting_next_action before its expiry while the expiry sweep runs", async () => {
      const qr = await createQr({ expirySeconds: 60 });
      // A silent-provider checkout is reconciled only by the sweep, so once it is pending a sweep
      // has run since the QR Ph intent was created (the same sweep expires due intents).
      const checkout = { referenceId: `sweep-${qr.paymentIntentId}`, amount: { amountMinor: 1504, currency: "PHP" }, successUrl: "https://shop.example.ph/ok", cancelUrl: "https://shop.example.ph/cancel" };
      expect((await api.request("POST", "/api/v1/payments/checkouts", { body: checkout })).status).toBe(409);
      await eventually(async () => {
        const read = await api.request("GET", `/api/v1/payments/checkouts/by-reference/${checkout.referenceId}`);
        return read.status === 200 && read.body.data.status === "pending" ? true : undefined;
      });
      const stored = await api.platform.stores.payments
        .collection<{ _id: string; status: string; expiresAt: Date }>({ name: "payment_intents" })
        .findOne({ _id: qr.paymentIntentId });
      expect(stored).toMatchObject({ status: "awaiting_next_action", expiresAt: new Date(qr.expiresAt) });
      expect((await api.request("GET", `${intents}/${qr.paymentIntentId}`)).body.data.status).toBe("requires_action");
    });
  });
});
