import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError, createLogger, Registry } from "@bayad/kit";
import { createOutbox } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createPaymongoAccountSetup, createSandboxProvider, createXenditAccountSetup, type PaymentProviders } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { createCheckout } from "../checkouts/checkouts.js";
import { createCheckoutsRepository } from "../checkouts/checkouts-repository.js";
import { createHostedPaymentsRepository } from "../hosted-payments/hosted-payments-repository.js";
import { createPaymentIntentsRepository } from "../payment-intents/payment-intents-repository.js";
import { createRefundsRepository } from "../refunds/refunds-repository.js";
import { createProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";
import { putProviderAccount } from "../provider-accounts/provider-accounts.js";
import { createAccountProviders } from "../providers/account-providers.js";
import { applyProviderEvent, type ApplyDeps } from "./apply-provider-event.js";
import { createProviderEventsRepository, type ProviderEventsRepository } from "./provider-events-repository.js";
import { registerProviderWebhookMetrics } from "./provider-webhook-metrics.js";
import { receiveProviderEvent, type ReceiveDeps } from "./receive-provider-event.js";

const SECRETS_KEY = "xendit-callbacks-test-secrets-key-0123456789";
/** The account's callback verification token, as the merchant copies it from Xendit's dashboard. */
const TOKEN = "xnd-callback-token-Rk2vQ9wLmP4tZ8sY";
/** PayMongo is never asked here (a Xendit account only): nothing listens there. */
const UNREACHABLE = "http://127.0.0.1:9";

/**
 * Xendit callbacks end to end inside the payments service, against the Xendit simulator: a
 * project's Xendit account, a checkout made there, the simulator's own callback bodies received
 * with the account's token and applied by reading Xendit's resources back.
 */
describe("Xendit callbacks: received by token, applied by reading the resource back", () => {
  let simulator: XenditSimulator;
  let store: Store;
  let registry: Registry;
  let lines: string[];
  let receiveDeps: ReceiveDeps;
  let applyDeps: ApplyDeps;
  let events: ProviderEventsRepository;
  let providerAccountId: string;

  beforeAll(async () => {
    simulator = await startXenditSimulator();
  });
  afterAll(async () => {
    await simulator.close();
  });

  beforeEach(async () => {
    store = createTestStore();
    registry = new Registry();
    lines = [];
    const now = () => new Date();
    const logger = createLogger("test", "debug", new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString("utf8")), done()) }));
    const outbox = createOutbox(store, "payments");
    const accounts = createProviderAccountsRepository(store);
    const providers = createAccountProviders({ accounts, secretsKey: SECRETS_KEY, paymongoApiBase: UNREACHABLE, xenditApiBase: simulator.url });
    const paymentProviders: PaymentProviders = { test: createSandboxProvider({ secret: "s".repeat(32), delayMs: 0, silenceMs: 0 }), accounts: providers };
    const keys = createIdempotencyKeys(store, { windowMs: 86_400_000 });
    const checkouts = { store, repository: createCheckoutsRepository(store), outbox, providers: paymentProviders, providerTimeoutMs: 5_000, logger, keys };
    const paymentIntents = { store, repository: createPaymentIntentsRepository(store), outbox, providers: paymentProviders, logger, now, keys, providerLeaseMs: 5_000 };
    const hostedPayments = createHostedPaymentsRepository(store);
    const refunds = {
      store,
      repository: createRefundsRepository(store),
      outbox,
      payments: {
        chk: { collection: checkouts.repository.collection, paidStatus: "paid" },
        pi: { collection: paymentIntents.repository.collection, paidStatus: "succeeded" },
        link: { collection: hostedPayments.collection, paidStatus: "paid" },
        inv: { collection: hostedPayments.collection, paidStatus: "paid" },
      },
      providers: paymentProviders,
      logger,
      keys,
    };
    events = createProviderEventsRepository(store);
    await store.ensureIndexes();
    const { account } = await putProviderAccount(
      {
        store,
        repository: accounts,
        outbox,
        setup: createPaymongoAccountSetup({ apiBase: UNREACHABLE }),
        xenditSetup: createXenditAccountSetup({ apiBase: simulator.url }),
        secretsKey: SECRETS_KEY,
        publicUrl: () => "https://pay.bayad.example.ph",
        logger,
      },
      {
        projectId: "prj_x",
        environment: "test",
        provider: "xendit",
        secretKey: `xnd_development_${Math.random().toString(36).slice(2)}${Date.now()}`,
        paymentMethodTypes: ["GCASH", "QRPH"],
        callbackToken: TOKEN,
      },
    );
    providerAccountId = account._id;
    receiveDeps = { accounts: providers, events, secretsKey: SECRETS_KEY, logger, metrics: registerProviderWebhookMetrics(registry), now, received: () => undefined };
    applyDeps = { checkouts, paymentIntents, refunds, providers, accountStatus: { store, repository: accounts, outbox, logger, now }, logger };
  });
  afterEach(async () => {
    await store.close();
  });

  let orders = 0;
  const pendingCheckout = async () => {
    const n = ++orders;
    const { checkout } = await createCheckout(
      applyDeps.checkouts,
      { projectId: "prj_x", environment: "test", correlationId: "xendit-callbacks", idempotencyKey: `xendit-checkout-${String(n).padStart(8, "0")}` },
      { referenceId: `order-${n}`, amountMinor: 250_50, successUrl: "https://shop.example.ph/thanks", cancelUrl: "https://shop.example.ph/cart", metadata: {} },
    );
    expect(checkout).toMatchObject({ status: "pending", providerAccountId });
    expect(checkout.providerReference).toMatch(/^ps-/);
    return checkout;
  };
  const receive = (body: string, tokens: string[], account = providerAccountId) =>
    receiveProviderEvent(receiveDeps, { provider: "xendit", providerAccountId: account, rawBody: new TextEncoder().encode(body), signature: "", callbackTokens: tokens });
  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: unknown) => error as AppError,
    );
  /** Applies every stored event that is due, as the applier does, and answers what each came to. */
  const applyDue = async () => {
    const results: string[] = [];
    for (const record of await events.findDue(new Date(), 50)) {
      const result = await applyProviderEvent(applyDeps, record);
      await events.settle(record._id, result, new Date());
      results.push(`${record.type}:${result}`);
    }
    return results;
  };
  const callbacksOf = (id: string) => simulator.events().filter((event) => event.body.includes(id));

  it("refuses a wrong, missing, empty or repeated token with the one 401, counted by reason, and stores nothing", async () => {
    const body = JSON.stringify({ event: "payment_session.completed", business_id: "b", created: new Date().toISOString(), data: { payment_session_id: "ps-1", reference_id: "chk_1" } });
    const cases: Array<[reason: string, tokens: string[], account?: string]> = [
      ["mismatch", ["xnd-not-the-token-000000000000"]],
      ["missing_header", []],
      ["empty_header", [""]],
      ["repeated_header", [TOKEN, TOKEN]],
      ["unknown_account", [TOKEN], "pa_NoSuchAccount0123456789ab"],
    ];
    for (const [reason, tokens, account] of cases) {
      const refused = await refusalOf(receive(body, tokens, account));
      expect(refused, reason).toBeInstanceOf(AppError);
      expect({ code: refused.code, message: refused.message, details: refused.details }, reason).toEqual({
        code: "INVALID_CREDENTIALS",
        message: "The signature could not be verified.",
        details: undefined,
      });
      expect(lines.at(-1), reason).toContain(`"reason":"${reason}"`);
    }
    const counted = await registry.getSingleMetric("bayad_provider_webhook_refusals_total")!.get();
    const count = (reason: string) => counted.values.find((value) => value.labels.provider === "xendit" && value.labels.reason === reason)?.value;
    for (const [reason] of cases) expect(count(reason), reason).toBe(1);
    expect(await events.collection.count({})).toBe(0);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("pays a checkout once its session, read back from Xendit, is completed by a succeeded payment; redeliveries are stored once", async () => {
    const checkout = await pendingCheckout();
    simulator.paySession(checkout.providerReference!, "GCASH");
    const callbacks = callbacksOf(checkout.providerReference!);
    expect(callbacks.map((callback) => callback.event)).toContain("payment_session.completed");
    for (const callback of simulator.events().filter((event) => event.body.includes(checkout._id))) {
      expect((await receive(callback.body, [TOKEN])).duplicate).toBe(false);
      expect(await receive(callback.body, [TOKEN])).toMatchObject({ duplicate: true });
    }
    const stored = await events.collection.find({});
    expect(stored.every((record) => record.provider === "xendit")).toBe(true);
    expect(stored.map((record) => record.eventId)).toContain(`payment_session.completed:${checkout.providerReference!}`);

    expect(await applyDue()).toContain("payment_session.completed:applied");
    const paid = await applyDeps.checkouts.repository.findByIdForPage(checkout._id);
    const session = simulator.find(checkout.providerReference!)!;
    expect(paid).toMatchObject({ status: "paid", providerPaymentId: session["payment_request_id"], paymentMethodUsed: "gcash", refundableMinor: 250_50 });
  });

  it("believes nothing a well-tokened callback claims that Xendit's own resource does not show: the checkout stays pending", async () => {
    const checkout = await pendingCheckout();
    // The right token, a real session id and Bayad's checkout id: but nobody paid.
    const forged = JSON.stringify({
      event: "payment_session.completed",
      business_id: "5f27a14a9bf05c73dd040bc8",
      created: new Date().toISOString(),
      data: {
        payment_session_id: checkout.providerReference,
        reference_id: checkout._id,
        status: "COMPLETED",
        amount: 250.5,
        currency: "PHP",
        payment_request_id: "pr-forged0000000000000000000000000000",
      },
    });
    expect(await receive(forged, [TOKEN])).toMatchObject({ duplicate: false });
    expect(await applyDue()).toEqual(["payment_session.completed:rejected"]);
    expect(await applyDeps.checkouts.repository.findByIdForPage(checkout._id)).toMatchObject({ status: "pending" });
    expect(lines.join("\n")).toContain("provider event not confirmed by the provider's resource: nothing changed");

    // Paid at Xendit after all, for the same checkout, but a payment claimed on another session's request is still not it.
    const other = await pendingCheckout();
    simulator.paySession(other.providerReference!, "QRPH");
    const misdirected = forged.replace(checkout.providerReference!, other.providerReference!);
    await receive(misdirected, [TOKEN]);
    // The hint names checkout one (its reference_id): its own session, read back, is still unpaid.
    expect(await applyDue()).toEqual(["payment_session.completed:rejected"]);
    expect(await applyDeps.checkouts.repository.findByIdForPage(checkout._id)).toMatchObject({ status: "pending" });
  });

  it("expires a checkout whose session Xendit shows expired", async () => {
    const checkout = await pendingCheckout();
    simulator.expireSession(checkout.providerReference!);
    for (const callback of callbacksOf(checkout.providerReference!)) await receive(callback.body, [TOKEN]);
    expect(await applyDue()).toEqual(["payment_session.expired:applied"]);
    expect(await applyDeps.checkouts.repository.findByIdForPage(checkout._id)).toMatchObject({ status: "expired" });
  });
});
