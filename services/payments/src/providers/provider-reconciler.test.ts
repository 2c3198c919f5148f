import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createLogger, randomBase62 } from "@bayad/kit";
import { createOutbox } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createPaymongoAccountSetup, createSandboxProvider, createXenditAccountSetup, type PaymentProviders } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { createCheckoutsRepository } from "../checkouts/checkouts-repository.js";
import { createPaymentIntentsRepository } from "../payment-intents/payment-intents-repository.js";
import { createRefundsRepository } from "../refunds/refunds-repository.js";
import { createHostedPaymentsRepository } from "../hosted-payments/hosted-payments-repository.js";
import { createProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";
import { putProviderAccount } from "../provider-accounts/provider-accounts.js";
import type { ProviderAccountRecord } from "../provider-accounts/provider-account.js";
import { createAccountProviders } from "./account-providers.js";
import { startProviderReconciler, type ProviderReconciler } from "./provider-reconciler.js";
import { createTestStore } from "@bayad/store/testing";

/** Xendit is never asked here (PayMongo accounts only): nothing listens there. */
const UNREACHABLE = "http://127.0.0.1:9";
const SECRETS_KEY = "provider-reconciler-test-secrets-key-0123456789";
const MINUTE = 60_000;

/** The reconciler of one embedded store against the PayMongo simulator, on a clock the test moves. */
describe("startProviderReconciler: an account whose key PayMongo refuses", () => {
  let simulator: PaymongoSimulator;
  let store: Store;
  let reconciler: ProviderReconciler;
  let clock: number;
  let lines: string[];

  beforeAll(async () => {
    simulator = await startPaymongoSimulator();
  });
  afterAll(async () => {
    await simulator.close();
  });

  beforeEach(() => {
    store = createTestStore();
    clock = Date.now();
    lines = [];
  });
  afterEach(async () => {
    await reconciler?.stop();
    await store.close();
  });

  function wire() {
    const now = () => new Date(clock);
    const logger = createLogger("test", "debug", new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString("utf8")), done()) }));
    const outbox = createOutbox(store, "payments");
    const accounts = createProviderAccountsRepository(store);
    const providers = createAccountProviders({ accounts, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url, xenditApiBase: UNREACHABLE });
    const paymentProviders: PaymentProviders = { test: createSandboxProvider({ secret: "s".repeat(32), delayMs: 0, silenceMs: 0 }), accounts: providers };
    const keys = createIdempotencyKeys(store, { windowMs: 86_400_000 });
    const setup = createPaymongoAccountSetup({ apiBase: simulator.url });
    const xenditSetup = createXenditAccountSetup({ apiBase: UNREACHABLE });
    const checkouts = { store, repository: createCheckoutsRepository(store), outbox, providers: paymentProviders, providerTimeoutMs: 1_000, logger, keys };
    const paymentIntents = { store, repository: createPaymentIntentsRepository(store), outbox, providers: paymentProviders, logger, now, keys, providerLeaseMs: 1_000 };
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
    reconciler = startProviderReconciler({
      store,
      checkouts,
      paymentIntents,
      refunds,
      accounts,
      outbox,
      providers,
      setup,
      xenditSetup,
      secretsKey: SECRETS_KEY,
      afterMs: 1_000,
      // Rounds are run by the test (tick); the timer never fires within it.
      intervalMs: 3_600_000,
      holderId: "test",
      logger,
      now,
    });
    const put = (secretKey: string) =>
      putProviderAccount(
        { store, repository: accounts, outbox, setup, xenditSetup, secretsKey: SECRETS_KEY, publicUrl: () => "https://pay.bayad.example.ph", logger, now },
        { projectId: "prj_shop1", environment: "live", provider: "paymongo", secretKey, paymentMethodTypes: ["gcash"] },
      );
    const account = async () => (await accounts.findByProvider("prj_shop1", "live", "paymongo")) as ProviderAccountRecord;
    const events = async () => (await store.collection<{ _id: string; subject: string }>({ name: "outbox" }).find({}, { sort: { aggregateVersion: 1 } })).map((record) => record.subject);
    return { put, account, events };
  }

  const refusals = () => lines.filter((line) => line.includes("provider refused the account's key")).length;

  it("pauses the account once, announces it once, and tries the key again only when each growing pause is over", async () => {
    const { put, account, events } = wire();
    const key = `sk_live_${randomBase62(24)}`;
    await put(key);
    simulator.rollSecretKey(key);

    await reconciler.tick();
    expect(await account()).toMatchObject({ status: "paused", statusReason: "key_refused", keyRefusals: 1 });
    expect((await account()).pausedUntil).toEqual(new Date(clock + MINUTE));
    expect(refusals()).toBe(1);
    expect(await events()).toEqual(["bayad.events.payments.provider_account.paused"]);

    // Within the pause nothing is asked of PayMongo with the refused key.
    clock += MINUTE - 1_000;
    await reconciler.tick();
    expect(refusals()).toBe(1);

    // Past it, the key is tried once; refused again, the next pause is twice as long, and not announced again.
    clock += 2_000;
    await reconciler.tick();
    expect(refusals()).toBe(2);
    expect(await account()).toMatchObject({ status: "paused", keyRefusals: 2 });
    expect((await account()).pausedUntil).toEqual(new Date(clock + 2 * MINUTE));
    clock += MINUTE;
    await reconciler.tick();
    expect(refusals()).toBe(2);
    expect(await events()).toEqual(["bayad.events.payments.provider_account.paused"]);
    expect(lines.join("")).not.toContain(key);
  });

  it("makes the account active again when a working key is put", async () => {
    const { put, account, events } = wire();
    const key = `sk_live_${randomBase62(24)}`;
    await put(key);
    const newKey = simulator.rollSecretKey(key);
    await reconciler.tick();
    expect((await account()).status).toBe("paused");

    await put(newKey);
    const active = await account();
    expect(active.status).toBe("active");
    expect(active.pausedUntil).toBeUndefined();
    expect(active.keyRefusals).toBeUndefined();
    expect(await events()).toEqual(["bayad.events.payments.provider_account.paused", "bayad.events.payments.provider_account.resumed"]);
    await reconciler.tick();
    expect((await account()).status).toBe("active");
    expect(refusals()).toBe(1);
  });

  it("resumes the account, announced, when its key works again once the pause is over", async () => {
    const { put, account, events } = wire();
    await put(`sk_live_${randomBase62(24)}`);
    // One 401 (a key briefly refused), then PayMongo takes the key again.
    simulator.injectFault({ method: "GET", path: `/v1/webhooks/${(await account()).webhook!.webhookId}`, status: 401, times: 1 });
    await reconciler.tick();
    expect((await account()).status).toBe("paused");

    clock += MINUTE + 1_000;
    const round = await reconciler.tick();
    expect(round.accountsResumed).toBe(1);
    expect(await account()).toMatchObject({ status: "active" });
    expect((await account()).keyRefusals).toBeUndefined();
    expect(await events()).toEqual(["bayad.events.payments.provider_account.paused", "bayad.events.payments.provider_account.resumed"]);
  });
});
