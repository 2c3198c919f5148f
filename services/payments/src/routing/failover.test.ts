import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger, createMetricsRegistry, type Registry } from "@bayad/kit";
import { createOutbox } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import { createCheckoutsRepository } from "../checkouts/checkouts-repository.js";
import { createCheckout, type CheckoutsDeps } from "../checkouts/checkouts.js";
import { createPaymentIntentsRepository } from "../payment-intents/payment-intents-repository.js";
import { createQrPhPaymentIntent, type PaymentIntentsDeps } from "../payment-intents/payment-intents.js";
import { createAccountBreakers } from "./account-breakers.js";
import { createCreatePins } from "./create-pins.js";
import { createPaymentRouting } from "./payment-routing.js";
import { registerProviderCallMetrics } from "./provider-call-metrics.js";
import { createProviderRoutingRepository } from "./provider-routing-repository.js";
import { fakeAccount, fakeAccountProviders } from "./test-support/fake-accounts.js";

let store: Store | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await store?.close();
  store = undefined;
});

/**
 * Checkouts and intents of a project holding two accounts (PayMongo's oldest, so the default
 * routing sends everything to it first and to Xendit only by failover), with breakers opening
 * after 3 failures in a row and probing again after 30 s.
 */
async function setup() {
  store = createTestStore();
  const paymongo = fakeAccount("pa_paymongo", { createdAt: new Date(1) });
  const xendit = fakeAccount("pa_xendit", { provider: "xendit", createdAt: new Date(2) });
  const registry: Registry = createMetricsRegistry();
  const accounts = fakeAccountProviders([paymongo, xendit]);
  const routing = createPaymentRouting({
    repository: createProviderRoutingRepository(store),
    accounts,
    breakers: createAccountBreakers({ threshold: 3, halfOpenAfterMs: 30_000 }),
    metrics: registerProviderCallMetrics(registry),
  });
  const outbox = createOutbox(store, "payments");
  const keys = createIdempotencyKeys(store, { windowMs: 86_400_000 });
  const providers = { test: createSandboxProvider({ secret: "s".repeat(32), delayMs: 0, silenceMs: 0 }), accounts };
  const checkouts: CheckoutsDeps = {
    store,
    repository: createCheckoutsRepository(store),
    outbox,
    providers,
    providerTimeoutMs: 5_000,
    logger: createLogger("test", "silent"),
    keys,
    routing,
  };
  const intents: PaymentIntentsDeps = {
    store,
    repository: createPaymentIntentsRepository(store),
    outbox,
    providers,
    logger: createLogger("test", "silent"),
    now: () => new Date(),
    keys,
    providerLeaseMs: 30_000,
    routing,
    pins: createCreatePins(store, { windowMs: 86_400_000 }),
  };
  await store.ensureIndexes();
  const metric = async (name: string) => (await registry.getSingleMetric(name)!.get()).values;
  return { paymongo, xendit, checkouts, intents, metric };
}

let keys = 0;
const caller = () => ({ projectId: "prj_both", environment: "test" as const, correlationId: "failover-test", idempotencyKey: `failover-key-${++keys}` });
let orders = 0;
const order = () => ({
  referenceId: `order-${++orders}`,
  amountMinor: 500_00,
  successUrl: "https://shop.example.ph/thanks",
  cancelUrl: "https://shop.example.ph/cart",
  metadata: {},
});
const qr = () => ({ referenceId: `qr-${++orders}`, amountMinor: 250_00, description: "Kape", expirySeconds: 0 });

describe("checkout failover", () => {
  it("serves the same request at the next account when the first answered 503: one checkout, the attempt recorded", async () => {
    const { paymongo, xendit, checkouts, metric } = await setup();
    paymongo.script.push("unavailable");
    const { checkout } = await createCheckout(checkouts, caller(), order());
    expect(checkout).toMatchObject({ status: "pending", providerAccountId: "pa_xendit", provider: "xendit" });
    expect(checkout.providerAttempts).toEqual([{ providerAccountId: "pa_paymongo", error: "PROVIDER_UNAVAILABLE", at: expect.any(Date) }]);
    expect(paymongo.creates).toEqual([`checkout:${checkout._id}`]);
    expect(xendit.creates).toEqual([`checkout:${checkout._id}`]);
    expect(await checkouts.repository.collection.count({})).toBe(1);
    expect(await metric("bayad_provider_failovers_total")).toEqual([
      expect.objectContaining({ value: 1, labels: { from_provider_account_id: "pa_paymongo", to_provider_account_id: "pa_xendit" } }),
    ]);
    expect(await metric("bayad_provider_calls_total")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ value: 1, labels: { provider: "paymongo", provider_account_id: "pa_paymongo", outcome: "unavailable" } }),
        expect.objectContaining({ value: 1, labels: { provider: "xendit", provider_account_id: "pa_xendit", outcome: "succeeded" } }),
      ]),
    );
  });

  it("never creates elsewhere after no answer: reconciles at the same account, then 409, and the retry stays there", async () => {
    const { paymongo, xendit, checkouts } = await setup();
    paymongo.script.push("no_answer", "no_answer");
    const who = caller();
    const input = order();
    await expect(createCheckout(checkouts, who, input)).rejects.toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN" });
    const [kept] = await checkouts.repository.collection.find({});
    expect(kept).toMatchObject({ status: "created", providerAccountId: "pa_paymongo" });
    expect(paymongo.creates).toEqual([`checkout:${kept!._id}`, `retrieve:${kept!._id}`]);
    expect(xendit.creates).toEqual([]);

    // The retry with the key asks the same account again, and only it.
    const { checkout } = await createCheckout(checkouts, who, input);
    expect(checkout).toMatchObject({ _id: kept!._id, status: "pending", providerAccountId: "pa_paymongo" });
    expect(xendit.creates).toEqual([]);
  });

  it("does not fail over a refusal", async () => {
    const { paymongo, xendit, checkouts } = await setup();
    paymongo.script.push("refused");
    await expect(createCheckout(checkouts, caller(), order())).rejects.toMatchObject({ code: "PROVIDER_REJECTED" });
    expect(xendit.creates).toEqual([]);
    const [kept] = await checkouts.repository.collection.find({});
    expect(kept).toMatchObject({ status: "failed", providerAccountId: "pa_paymongo" });
  });

  it("opens an account's circuit after 3 failures in a row, skips it, and probes it once the half-open delay has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { paymongo, xendit, checkouts } = await setup();
    paymongo.script.push("unavailable", "unavailable", "unavailable");
    for (let index = 0; index < 3; index++) await createCheckout(checkouts, caller(), order());
    expect(paymongo.creates).toHaveLength(3);

    // Open: PayMongo is not asked; the checkout goes to Xendit, the skip recorded.
    const { checkout: skipped } = await createCheckout(checkouts, caller(), order());
    expect(paymongo.creates).toHaveLength(3);
    expect(skipped).toMatchObject({ providerAccountId: "pa_xendit", providerAttempts: [expect.objectContaining({ providerAccountId: "pa_paymongo", error: "CIRCUIT_OPEN" })] });

    // Half-open after 30 s: the next checkout probes PayMongo, which answers, and the circuit closes.
    vi.setSystemTime(Date.now() + 31_000);
    const { checkout: probe } = await createCheckout(checkouts, caller(), order());
    expect(probe).toMatchObject({ providerAccountId: "pa_paymongo", status: "pending" });
    const { checkout: after } = await createCheckout(checkouts, caller(), order());
    expect(after).toMatchObject({ providerAccountId: "pa_paymongo" });
    expect(paymongo.creates).toHaveLength(5);
    expect(xendit.creates).toHaveLength(4);
  });
});

describe("payment intent failover", () => {
  it("makes a QR Ph intent at the next account when the first answered 503, with the attempt recorded", async () => {
    const { paymongo, xendit, intents } = await setup();
    paymongo.script.push("unavailable");
    const intent = await createQrPhPaymentIntent(intents, caller(), qr());
    expect(intent).toMatchObject({ status: "awaiting_next_action", providerAccountId: "pa_xendit", provider: "xendit" });
    expect(intent.providerAttempts).toEqual([expect.objectContaining({ providerAccountId: "pa_paymongo", error: "PROVIDER_UNAVAILABLE" })]);
    expect(paymongo.creates).toHaveLength(1);
    expect(xendit.creates).toEqual([`qrph:${intent._id}`]);
  });

  it("after no answer, answers 409 without asking another account, and a retry with the key continues at the same one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { paymongo, xendit, intents } = await setup();
    paymongo.script.push("no_answer", "no_answer");
    const who = caller();
    const input = qr();
    await expect(createQrPhPaymentIntent(intents, who, input)).rejects.toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN" });
    expect(paymongo.creates).toHaveLength(2);
    expect(xendit.creates).toEqual([]);

    // The key is pinned to PayMongo: making nothing there now, or its circuit open (3 failures
    // in a row), is answered as such, never by Xendit.
    paymongo.script.push("unavailable");
    await expect(createQrPhPaymentIntent(intents, who, input)).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
    await expect(createQrPhPaymentIntent(intents, who, input)).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
    expect(paymongo.creates).toHaveLength(3);
    expect(xendit.creates).toEqual([]);
    vi.setSystemTime(Date.now() + 31_000);
    const intent = await createQrPhPaymentIntent(intents, who, input);
    expect(intent).toMatchObject({ providerAccountId: "pa_paymongo" });
    expect(xendit.creates).toEqual([]);
  });
});
