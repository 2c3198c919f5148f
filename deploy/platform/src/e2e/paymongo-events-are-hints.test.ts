import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { createLogger } from "@bayad/kit";
import { eventually, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

interface SimulatedSession {
  id: string;
  type: string;
  attributes: Record<string, unknown> & { metadata: Record<string, string>; payments: unknown[] };
}

/**
 * Provider events are hints, and reconciliation cannot stall, end to end against the PayMongo
 * simulator: an event signed with the webhook's real secret (which anyone holding the account's
 * key can read) changes nothing PayMongo's own resource does not confirm; a resource PayMongo
 * never answers for does not keep the others from settling; a revoked key pauses the account
 * (admin API, consumer event) until a new key is put, and then everything settles again.
 */
describe("PayMongo events are hints; reconciliation cannot stall", () => {
  let sim: PaymongoSimulator;
  let api: TestPlatform;
  let project: { projectId: string; liveKey: string; testKey: string };
  let providerAccountId: string;
  let secretKey = `sk_live_${randomBytes(16).toString("hex")}`;
  const logLines: string[] = [];

  beforeAll(async () => {
    sim = await startPaymongoSimulator({ retrySchedule: [50, 50, 50] });
    api = await startTestPlatform(
      {
        PAYMONGO_API_BASE: sim.url,
        SECRETS_KEY: randomBytes(32).toString("hex"),
        PROVIDER_RECONCILE_AFTER: "1s",
        PROVIDER_RECONCILE_INTERVAL: "1s",
        PROVIDER_TIMEOUT_MS: "1000",
        PAYMENTS_RECONCILE_INTERVAL_MS: "200",
        PAYMENTS_PROVIDER_LEASE_MS: "1000",
      },
      { logger: createLogger("bayad", "debug", { write: (line: string) => void logLines.push(line) }) },
    );
    project = await api.newProject("Hints shop");
    const put = await putAccount();
    expect(put.status).toBe(201);
    providerAccountId = put.body.data.providerAccountId;
    expect(put.body.data.status).toBe("active");
  });
  afterAll(async () => {
    await api?.close();
    await sim?.close();
  });

  const putAccount = () => api.admin("PUT", `/admin/v1/projects/${project.projectId}/provider-accounts/live`, { provider: "paymongo", secretKey, paymentMethodTypes: ["gcash", "qrph"] });
  const live = (method: string, path: string, body?: unknown) => api.request(method, path, { body, credential: project.liveKey });
  const checkoutStatus = async (checkoutId: string) => (await live("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data.status as string;
  const providerEvents = () => api.platform.stores.payments.collection<{ _id: string; eventId: string; state: string }>({ name: "provider_events" });

  async function liveCheckout(amountMinor = 250_00) {
    const created = await live("POST", "/api/v1/payments/checkouts", {
      referenceId: unique("hint-order"),
      amount: { amountMinor, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    });
    expect(created.status).toBe(201);
    const sessionId = new URL(created.body.data.checkoutUrl as string).pathname.split("/").pop()!;
    return { checkoutId: created.body.data.checkoutId as string, sessionId };
  }

  /** Waits until the gateway took the event and the payments service settled it; answers its state. */
  async function settledState(eventId: string) {
    return eventually(async () => {
      const record = await providerEvents().findOne({ eventId });
      return record && record.state !== "received" ? record.state : undefined;
    }, 15_000);
  }

  it("leaves a checkout pending when a correctly signed event says its session was paid and PayMongo's session says otherwise", async () => {
    const { checkoutId, sessionId } = await liveCheckout();
    const session = sim.find(sessionId) as SimulatedSession;
    const claimed = {
      ...session,
      attributes: { ...session.attributes, paid_at: Math.floor(Date.now() / 1000), payments: [{ id: "pay_forged", type: "payment", attributes: { status: "paid", amount: 250_00, currency: "PHP" } }] },
    };
    const { eventId } = sim.forgeEvent({ type: "checkout_session.payment.paid", data: claimed });
    await sim.flushDeliveries();
    // Signed with the webhook's own secret: the gateway takes it (2xx) …
    expect(sim.deliveries().find((delivery) => delivery.eventId === eventId)?.status).toBe(200);
    // … and the payments service, having read the session back, rejects it.
    expect(await settledState(eventId)).toBe("rejected");
    expect(await checkoutStatus(checkoutId)).toBe("pending");
    expect(logLines.some((line) => line.includes("not confirmed by the provider's resource") && line.includes(checkoutId))).toBe(true);
  });

  it("does nothing with a paid session's event replayed with a tampered amount and another checkout's id, and still settles the real payment", async () => {
    const paid = await liveCheckout(250_00);
    const other = await liveCheckout(900_00);
    sim.setWebhookDelivery({ mode: "drop" });
    await sim.payCheckoutSession(paid.sessionId);
    sim.setWebhookDelivery({ mode: "deliver" });
    const session = sim.find(paid.sessionId) as SimulatedSession;
    const tampered = {
      ...session,
      attributes: {
        ...session.attributes,
        metadata: { ...session.attributes.metadata, bayad_resource_id: other.checkoutId },
        payments: (session.attributes.payments as Array<{ attributes: Record<string, unknown> }>).map((payment) => ({ ...payment, attributes: { ...payment.attributes, amount: 900_00 } })),
      },
    };
    const { eventId } = sim.forgeEvent({ type: "checkout_session.payment.paid", data: tampered });
    await sim.flushDeliveries();
    expect(await settledState(eventId)).toBe("rejected");
    expect(await checkoutStatus(other.checkoutId)).toBe("pending");
    expect(logLines.some((line) => line.includes("not confirmed by the provider's resource") && line.includes(other.checkoutId))).toBe(true);
    // The real payment settles (its own event was lost: by reconciliation, reading PayMongo).
    await eventually(async () => ((await checkoutStatus(paid.checkoutId)) === "paid" ? true : undefined), 20_000);
    expect(await checkoutStatus(other.checkoutId)).toBe("pending");
  });

  it("settles a real payment from PayMongo's own signed event", async () => {
    const { checkoutId, sessionId } = await liveCheckout();
    await sim.payCheckoutSession(sessionId);
    await sim.flushDeliveries();
    const event = sim.events().findLast((candidate) => candidate.type === "checkout_session.payment.paid" && candidate.body.includes(sessionId))!;
    expect(await settledState(event.id)).toBe("applied");
    expect(await checkoutStatus(checkoutId)).toBe("paid");
  });

  it("keeps a QR Ph intent awaiting its scan on a forged qrph.expired, and expires it when PayMongo's code really expired", async () => {
    const created = await live("POST", "/api/v1/payments/intents/qrph", {
      referenceId: unique("qr-hint"),
      amount: { amountMinor: 180_00, currency: "PHP" },
      description: "Two iced coffees",
      expirySeconds: 600,
    });
    expect(created.status).toBe(201);
    const intentId = created.body.data.paymentIntentId as string;
    const stored = await api.platform.stores.payments.collection<{ _id: string; providerReference: string }>({ name: "payment_intents" }).findOne({ _id: intentId });
    const providerIntentId = stored!.providerReference;
    const intentStatus = async () => (await live("GET", `/api/v1/payments/intents/${intentId}`)).body.data.status as string;

    const now = new Date().toISOString();
    const forged = sim.forgeEvent({
      type: "qrph.expired",
      data: { id: `qrph_${randomBytes(12).toString("hex")}`, type: "qrph", attributes: { code_id: "code_forged", created_at: now, source_status: "expired", payment_intent_id: providerIntentId } },
      secretKey,
    });
    await sim.flushDeliveries();
    expect(await settledState(forged.eventId)).toBe("rejected");
    expect(await intentStatus()).toBe("requires_action");

    await sim.expireQrPh(providerIntentId);
    await sim.flushDeliveries();
    // An expired intent reads `cancelled` in the public API.
    await eventually(async () => ((await intentStatus()) === "cancelled" ? true : undefined), 15_000);
    const record = await api.platform.stores.payments.collection<{ _id: string; status: string }>({ name: "payment_intents" }).findOne({ _id: intentId });
    expect(record?.status).toBe("expired");
  });

  it("settles one checkout by reconciliation while PayMongo keeps failing the read of another", async () => {
    sim.setWebhookDelivery({ mode: "drop" });
    const failing = await liveCheckout();
    const settles = await liveCheckout();
    sim.injectFault({ method: "GET", path: `/v1/checkout_sessions/${failing.sessionId}`, status: 500, times: 100_000 });
    try {
      await sim.payCheckoutSession(settles.sessionId);
      await eventually(async () => ((await checkoutStatus(settles.checkoutId)) === "paid" ? true : undefined), 20_000);
      // The failing one backs off on its own: its failures are counted on it, and its next read waits.
      const stored = api.platform.stores.payments.collection<{ _id: string; reconcile?: { failures: number; nextAt: Date } }>({ name: "checkouts" });
      const record = await eventually(async () => {
        const found = await stored.findOne({ _id: failing.checkoutId });
        return found?.reconcile && found.reconcile.failures >= 1 ? found : undefined;
      }, 20_000);
      expect(record.reconcile!.nextAt.getTime()).toBeGreaterThan(Date.now() - 5_000);
      expect(await checkoutStatus(failing.checkoutId)).toBe("pending");
    } finally {
      sim.clearFaults();
      sim.setWebhookDelivery({ mode: "deliver" });
    }
  });

  it("pauses the account when PayMongo refuses its key, announces it, and resumes and settles once a new key is put", async () => {
    sim.setWebhookDelivery({ mode: "drop" });
    try {
      const { checkoutId, sessionId } = await liveCheckout();
      // The merchant rolls the key in PayMongo's dashboard: the key Bayad holds now answers 401.
      const newKey = sim.rollSecretKey(secretKey);
      const account = await eventually(async () => {
        const read = await api.admin("GET", `/admin/v1/projects/${project.projectId}/provider-accounts/live`);
        return read.body.data.status === "paused" ? read.body.data : undefined;
      }, 20_000);
      expect(account).toMatchObject({ providerAccountId, status: "paused", statusReason: "key_refused" });
      expect(new Date(account.pausedUntil as string).getTime()).toBeGreaterThan(Date.now());
      const paused = await eventually(async () => {
        const page = await live("GET", "/api/v1/events?type=provider_account.paused");
        return page.body.data.events.find((event: { data: { providerAccountId: string } }) => event.data.providerAccountId === providerAccountId);
      }, 20_000);
      expect(paused.data).toMatchObject({ status: "paused", statusReason: "key_refused", secretKeyLast4: secretKey.slice(-4) });
      expect(JSON.stringify(paused)).not.toContain(secretKey);

      // Paid at PayMongo meanwhile (its event lost): it settles once the account works again.
      await sim.payCheckoutSession(sessionId);

      secretKey = newKey;
      const put = await putAccount();
      expect(put.status).toBe(200);
      expect(put.body.data).toMatchObject({ providerAccountId, status: "active" });
      expect(put.body.data.statusReason).toBeUndefined();
      await eventually(async () => {
        const page = await live("GET", "/api/v1/events?type=provider_account.resumed");
        return page.body.data.events.some((event: { data: { providerAccountId: string } }) => event.data.providerAccountId === providerAccountId) ? true : undefined;
      }, 20_000);
      await eventually(async () => ((await checkoutStatus(checkoutId)) === "paid" ? true : undefined), 20_000);
    } finally {
      sim.setWebhookDelivery({ mode: "deliver" });
    }
    expect(logLines.some((line) => line.includes(secretKey))).toBe(false);
  });
});
