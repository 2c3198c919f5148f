import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, randomBase62 } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createPaymongoAccountSetup, createSandboxProvider, createXenditAccountSetup } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { createProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";
import { putProviderAccount } from "../provider-accounts/provider-accounts.js";
import { createAccountProviders } from "../providers/account-providers.js";
import { createCheckoutsRepository } from "./checkouts-repository.js";
import {
  applyProviderCheckoutOutcome,
  createCheckout,
  getCheckout,
  reconcileStaleCheckouts,
  type CheckoutsDeps,
  type CreateCheckoutInput,
} from "./checkouts.js";
import { createTestStore } from "@bayad/store/testing";
import { fromBinary } from "@bufbuild/protobuf";
import { EventSchema } from "@bayad/proto";
import { settleCheckoutFromProvider, type SettleDeps } from "../providers/settle-from-provider.js";

/** Xendit is never asked here (PayMongo accounts only): nothing listens there. */
const UNREACHABLE = "http://127.0.0.1:9";
const SECRETS_KEY = "paymongo-checkouts-test-secrets-key-0123456789";

/**
 * Checkouts of a project with its own PayMongo account (live mode), against the PayMongo
 * simulator: the account's amount limits, and what PayMongo reports of a checkout's payment.
 */
describe("checkouts at a project's PayMongo account", () => {
  let simulator: PaymongoSimulator;
  let store: Store;
  let deps: CheckoutsDeps;
  let providerAccountId: string;

  beforeAll(async () => {
    simulator = await startPaymongoSimulator();
  });
  afterAll(async () => {
    await simulator.close();
  });

  beforeEach(async () => {
    store = createTestStore();
    const outbox = createOutbox(store, "payments");
    const accounts = createProviderAccountsRepository(store);
    const logger = createLogger("test", "silent");
    deps = {
      store,
      repository: createCheckoutsRepository(store),
      outbox,
      providers: {
        test: createSandboxProvider({ secret: "paymongo-checkouts-sandbox", delayMs: 0, silenceMs: 0 }),
        accounts: createAccountProviders({ accounts, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url, xenditApiBase: UNREACHABLE }),
      },
      providerTimeoutMs: 10_000,
      logger,
      keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
    };
    await store.ensureIndexes();
    const { account } = await putProviderAccount(
      {
        store,
        repository: accounts,
        outbox,
        setup: createPaymongoAccountSetup({ apiBase: simulator.url }),
        xenditSetup: createXenditAccountSetup({ apiBase: UNREACHABLE }),
        secretsKey: SECRETS_KEY,
        publicUrl: () => "https://pay.bayad.example.ph",
        logger,
      },
      { projectId: "prj_shop", environment: "live", provider: "paymongo", secretKey: `sk_live_${randomBase62(24)}`, paymentMethodTypes: ["gcash", "card"] },
    );
    providerAccountId = account._id;
  });
  afterEach(async () => {
    simulator.clearFaults();
    await store.close();
  });

  let keys = 0;
  const live = () => ({ projectId: "prj_shop", environment: "live" as const, correlationId: "paymongo-checkouts", idempotencyKey: `pm-checkout-${String(++keys).padStart(8, "0")}` });
  let orders = 0;
  const order = (amountMinor = 2_500_00): CreateCheckoutInput => ({
    referenceId: `pm-order-${++orders}`,
    amountMinor,
    successUrl: "https://shop.example.ph/thanks",
    cancelUrl: "https://shop.example.ph/cart",
    metadata: {},
  });
  const checkoutEvents = async (checkoutId: string) =>
    (await store.collection<OutboxRecord>(outboxCollection).find({ resourceId: checkoutId }, { sort: { aggregateVersion: 1 } })).map((record) =>
      record.subject.replace("bayad.events.payments.", ""),
    );
  /** PayMongo's checkout session, as the simulator holds it. */
  const sessionAt = (id: string) => simulator.find(id) as { attributes: { line_items: Array<{ amount: number; currency: string }>; metadata: Record<string, string> } };

  async function pendingCheckout(amountMinor?: number) {
    const { checkout } = await createCheckout(deps, live(), order(amountMinor));
    expect(checkout.status).toBe("pending");
    return checkout;
  }

  describe("createCheckout", () => {
    it("makes the session at the account for the amount in centavos, and keeps the account on the checkout", async () => {
      const checkout = await pendingCheckout(2_500_00);
      expect(checkout).toMatchObject({ providerAccountId, amountMinor: 2_500_00, currency: "PHP", aggregateVersion: 2 });
      expect(checkout.providerReference).toMatch(/^cs_/);
      expect(checkout.checkoutUrl).toMatch(/^https?:\/\//);
      const session = sessionAt(checkout.providerReference!);
      expect(session.attributes.line_items).toEqual([expect.objectContaining({ amount: 2_500_00, currency: "PHP" })]);
      expect(session.attributes.metadata).toMatchObject({ bayad_resource_id: checkout._id });
    });

    it("refuses an amount none of the account's methods takes with AMOUNT_OUT_OF_RANGE, before writing or asking PayMongo", async () => {
      const sessions = simulator.objects("checkout_session").length;
      const who = live();
      await expect(createCheckout(deps, who, order(19_99))).rejects.toMatchObject({
        code: "AMOUNT_OUT_OF_RANGE",
        details: [
          "amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for gcash",
          "amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for card",
        ],
      });
      expect(await deps.repository.collection.count({})).toBe(0);
      expect(simulator.objects("checkout_session")).toHaveLength(sessions);
      // The key was not used up: the corrected request is made with it.
      expect((await createCheckout(deps, who, order(20_00))).checkout).toMatchObject({ status: "pending", amountMinor: 20_00 });
    });

    it("fails, announced, a checkout whose session PayMongo refuses: the refusal is the answer, and nothing asks again", async () => {
      const sessions = simulator.objects("checkout_session").length;
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 400, code: "parameter_invalid", times: 5 });
      const who = live();
      const input = order();
      await expect(createCheckout(deps, who, input)).rejects.toMatchObject({
        code: "PROVIDER_REJECTED",
        details: ["request: The PayMongo simulator answered 400 as a fault was injected. (parameter_invalid)"],
      });
      const [refused] = await deps.repository.collection.find({});
      expect(refused).toMatchObject({ status: "failed", aggregateVersion: 2 });
      expect(await checkoutEvents(refused!._id)).toEqual(["checkout.created", "checkout.failed"]);

      // PayMongo would take it now: still, neither the stale sweep nor a retry with the key opens
      // a checkout whose refusal the merchant was answered.
      simulator.clearFaults();
      await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(refused!.createdAt.getTime()), { timeout: 1_000, interval: 1 });
      expect(await reconcileStaleCheckouts(deps, 0)).toBe(0);
      expect(await createCheckout(deps, who, input)).toMatchObject({ checkout: { _id: refused!._id, status: "failed" }, providerPending: false });
      expect(simulator.objects("checkout_session")).toHaveLength(sessions);
    });
  });

  describe("applyProviderCheckoutOutcome", () => {
    it("pays a pending checkout with PayMongo's payment, its method and time, all of it refundable; a repeated report changes nothing", async () => {
      const checkout = await pendingCheckout(2_500_00);
      const { paymentId } = await simulator.payCheckoutSession(checkout.providerReference!, { method: "gcash" });
      const paidAt = new Date("2030-05-01T08:00:00.000Z");
      const report = { status: "paid" as const, providerPaymentId: paymentId, method: "gcash", paidAt };
      const paid = await applyProviderCheckoutOutcome(deps, providerAccountId, checkout._id, report);
      expect(paid).toMatchObject({
        status: "paid",
        aggregateVersion: 3,
        providerPaymentId: paymentId,
        paymentMethodUsed: "gcash",
        paidAt,
        refundableMinor: 2_500_00,
      });
      expect(await applyProviderCheckoutOutcome(deps, providerAccountId, checkout._id, report)).toEqual(paid);
      expect(await checkoutEvents(checkout._id)).toEqual(["checkout.created", "checkout.pending", "checkout.paid"]);
    });

    it("settles a checkout paid at PayMongo with Bayad's method name and PayMongo's fee (amount − net_amount), in its paid event", async () => {
      const checkout = await pendingCheckout(2_500_00);
      const { paymentId } = await simulator.payCheckoutSession(checkout.providerReference!, { method: "gcash" });
      const accountProviders = createAccountProviders({ accounts: createProviderAccountsRepository(store), secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url, xenditApiBase: UNREACHABLE });
      const found = await accountProviders.paymongoOf(providerAccountId);
      const settleDeps = { checkouts: deps, logger: deps.logger } as unknown as SettleDeps;
      expect(await settleCheckoutFromProvider(settleDeps, found!.provider, checkout, "test")).toBe("applied");
      const net = (simulator.find(paymentId) as { attributes: { net_amount: number } }).attributes.net_amount;
      expect(net).toBeLessThan(2_500_00);
      const paid = await getCheckout(deps, live(), checkout._id);
      expect(paid).toMatchObject({ status: "paid", paymentMethodUsed: "gcash", paymentMethod: "gcash", feeMinor: 2_500_00 - net });
      const stored = await store.collection<OutboxRecord>(outboxCollection).findOne({ resourceId: checkout._id, aggregateVersion: 3 });
      const event = fromBinary(EventSchema, Buffer.from(stored!.payload, "base64"));
      expect(event.snapshot.value).toMatchObject({ paymentMethod: "gcash", fee: { amountMinor: BigInt(2_500_00 - net), currency: "PHP" } });
    });

    it("fails or expires a pending checkout, announced; a paid checkout stays paid", async () => {
      const failed = await pendingCheckout();
      expect(await applyProviderCheckoutOutcome(deps, providerAccountId, failed._id, { status: "failed" })).toMatchObject({ status: "failed", aggregateVersion: 3 });
      expect((await checkoutEvents(failed._id)).at(-1)).toBe("checkout.failed");

      const expired = await pendingCheckout();
      expect(await applyProviderCheckoutOutcome(deps, providerAccountId, expired._id, { status: "expired" })).toMatchObject({ status: "expired", aggregateVersion: 3 });
      expect((await checkoutEvents(expired._id)).at(-1)).toBe("checkout.expired");

      const paid = await pendingCheckout();
      await applyProviderCheckoutOutcome(deps, providerAccountId, paid._id, { status: "paid", providerPaymentId: "pay_1" });
      for (const status of ["failed", "expired"] as const) {
        expect(await applyProviderCheckoutOutcome(deps, providerAccountId, paid._id, { status })).toMatchObject({ status: "paid", aggregateVersion: 3 });
      }
      expect(await checkoutEvents(paid._id)).toEqual(["checkout.created", "checkout.pending", "checkout.paid"]);
    });

    it("ignores a report from another account, or about a checkout it does not have", async () => {
      const checkout = await pendingCheckout();
      expect(await applyProviderCheckoutOutcome(deps, "pa_another", checkout._id, { status: "paid", providerPaymentId: "pay_x" })).toBeUndefined();
      expect(await applyProviderCheckoutOutcome(deps, providerAccountId, "chk_unknown", { status: "paid", providerPaymentId: "pay_x" })).toBeUndefined();
      expect(await getCheckout(deps, live(), checkout._id)).toEqual(checkout);
    });

    it("reconciles an unanswered create at the same account within the request: PayMongo answers the session the first call made", async () => {
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 500, afterProcessing: true, times: 1 });
      const { checkout } = await createCheckout(deps, live(), order());
      expect(checkout).toMatchObject({ status: "pending", providerAccountId, provider: "paymongo" });
      const sessions = simulator.objects("checkout_session") as { attributes: { metadata: Record<string, string> } }[];
      expect(sessions.filter((session) => session.attributes.metadata.bayad_resource_id === checkout._id)).toHaveLength(1);
    }, 20_000);

    it("refuses a payment of a checkout whose session is not recorded yet, and applies it once the session is", async () => {
      // Every attempt's answer is lost after PayMongo made the session, the create's and the
      // reconciliation's at the same account within the request: the outcome is unknown.
      simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 500, afterProcessing: true, times: 100 });
      const who = live();
      const input = order();
      await expect(createCheckout(deps, who, input)).rejects.toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN" });
      simulator.clearFaults();
      const [kept] = await deps.repository.collection.find({});
      expect(kept).toMatchObject({ status: "created", providerAccountId });
      const report = { status: "paid" as const, providerPaymentId: "pay_early" };
      await expect(applyProviderCheckoutOutcome(deps, providerAccountId, kept!._id, report)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });

      // The retry with the key gets PayMongo's answer to it (the same session); the report applies then.
      const { checkout } = await createCheckout(deps, who, input);
      expect(checkout).toMatchObject({ _id: kept!._id, status: "pending" });
      expect(simulator.objects("checkout_session").filter((session) => (session as { attributes: { metadata: Record<string, string> } }).attributes.metadata.bayad_resource_id === kept!._id)).toHaveLength(1);
      expect(await applyProviderCheckoutOutcome(deps, providerAccountId, kept!._id, report)).toMatchObject({ status: "paid", providerPaymentId: "pay_early" });
    }, 20_000);
  });
});
