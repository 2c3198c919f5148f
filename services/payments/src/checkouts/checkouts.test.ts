import { fromBinary } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CheckoutStatus, EventSchema } from "@bayad/proto";
import { createLogger, type Environment } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider, type SandboxProviderOptions } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { createCheckoutsRepository } from "./checkouts-repository.js";
import {
  cancelCheckout,
  createCheckout,
  getCheckout,
  getCheckoutByReference,
  getHostedCheckout,
  reconcileStaleCheckouts,
  simulateCheckoutOutcome,
  submitHostedCheckout,
  type CheckoutsDeps,
  type CreateCheckoutInput,
} from "./checkouts.js";
import { createTestStore } from "@bayad/store/testing";

/** The sandbox's documented scenario amounts, in centavos: a late answer, no answer, a declined payment. */
const DELAY = 14_08;
const SILENCE = 15_04;
const DECLINE = 10_02;

const SANDBOX_SECRET = "checkouts-test-sandbox-secret-0123456789";
const sandbox = (options: Partial<SandboxProviderOptions> = {}) =>
  createSandboxProvider({ secret: SANDBOX_SECRET, delayMs: 0, silenceMs: 0, ...options });

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** The checkouts of one embedded store, with the sandbox as test mode's provider (live mode has none). */
async function setup(options: { sandbox?: Partial<SandboxProviderOptions>; providerTimeoutMs?: number } = {}) {
  store = createTestStore();
  const deps: CheckoutsDeps = {
    store,
    repository: createCheckoutsRepository(store),
    outbox: createOutbox(store, "payments"),
    providers: { test: sandbox(options.sandbox) },
    providerTimeoutMs: options.providerTimeoutMs ?? 5_000,
    logger: createLogger("test", "silent"),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  /** The events announcing a checkout, as their subscribers decode them: type, version and the snapshot's status. */
  const eventsOf = async (checkoutId: string) =>
    (await outbox.find({ resourceId: checkoutId }, { sort: { aggregateVersion: 1 } })).map((record) => {
      const event = fromBinary(EventSchema, Buffer.from(record.payload, "base64"));
      const status = event.snapshot.case === "checkout" ? CheckoutStatus[event.snapshot.value.status] : undefined;
      return [event.type, event.aggregateVersion, status];
    });
  return { deps, outbox, eventsOf };
}

let keys = 0;
const caller = (projectId = "prj_shop", environment: Environment = "test") => ({
  projectId,
  environment,
  correlationId: "checkouts-test",
  idempotencyKey: `checkout-key-${String(++keys).padStart(8, "0")}`,
});
let orders = 0;
const order = (overrides: Partial<CreateCheckoutInput> = {}): CreateCheckoutInput => ({
  referenceId: `order-${++orders}`,
  amountMinor: 1_250_00,
  successUrl: "https://shop.example.ph/thanks",
  cancelUrl: "https://shop.example.ph/cart",
  metadata: { cart: "c-17" },
  ...overrides,
});

describe("createCheckout", () => {
  it("opens a pending checkout on the sandbox's payment page, announced checkout.created then checkout.pending", async () => {
    const { deps, eventsOf, outbox } = await setup();
    const { checkout, providerPending } = await createCheckout(deps, caller(), order({ referenceId: "order-A1" }));
    expect(providerPending).toBe(false);
    expect(checkout).toMatchObject({
      status: "pending",
      referenceId: "order-A1",
      amountMinor: 1_250_00,
      currency: "PHP",
      successUrl: "https://shop.example.ph/thanks",
      cancelUrl: "https://shop.example.ph/cart",
      aggregateVersion: 2,
    });
    expect(checkout._id).toMatch(/^chk_[A-Za-z0-9]+$/);
    expect(checkout.providerReference).toMatch(/^cs_sandbox_/);
    expect(checkout.checkoutUrl).toBe(`/sandbox/checkouts/${checkout._id}?token=${checkout.pageToken}`);
    expect(await eventsOf(checkout._id)).toEqual([
      ["payments.checkout.created", 1, "CREATED"],
      ["payments.checkout.pending", 2, "PENDING"],
    ]);
    // What a subscriber of checkout.pending learns: the amount in centavos, where to pay, the metadata.
    const [, pending] = await outbox.find({ resourceId: checkout._id }, { sort: { aggregateVersion: 1 } });
    const snapshot = fromBinary(EventSchema, Buffer.from(pending!.payload, "base64")).snapshot;
    expect(snapshot.case === "checkout" && snapshot.value).toMatchObject({
      checkoutId: checkout._id,
      amount: { amountMinor: 1_250_00n, currency: "PHP" },
      checkoutUrl: checkout.checkoutUrl,
      metadata: { cart: "c-17" },
    });
    expect(pending).toMatchObject({ projectId: "prj_shop", environment: "test", subject: "bayad.events.payments.checkout.pending" });
  });

  it("answers the checkout it created, with no second set of events, for a repeated Idempotency-Key", async () => {
    const { deps, outbox } = await setup();
    const who = caller();
    const first = await createCheckout(deps, who, order());
    const again = await createCheckout(deps, who, order());
    expect(again).toEqual({ checkout: first.checkout, providerPending: false });
    expect(await deps.repository.collection.count({})).toBe(1);
    expect(await outbox.count({})).toBe(2);
  });

  it("creates one checkout for concurrent requests with one Idempotency-Key, and answers each of them with it", async () => {
    const { deps, outbox } = await setup();
    const who = caller();
    const input = order();
    const answers = await Promise.all(Array.from({ length: 6 }, () => createCheckout(deps, who, input)));
    expect(new Set(answers.map((answer) => answer.checkout._id)).size).toBe(1);
    expect(answers.map((answer) => answer.checkout.status)).toEqual(Array(6).fill("pending"));
    expect(await deps.repository.collection.count({})).toBe(1);
    expect(await outbox.count({})).toBe(2);
  });

  it("refuses with IDEMPOTENCY_KEY_PAYLOAD_MISMATCH a key another operation used, and writes nothing", async () => {
    const { deps, outbox } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    const cancelKey = caller();
    await cancelCheckout(deps, cancelKey, checkout._id);
    const writes = await outbox.count({});
    await expect(createCheckout(deps, cancelKey, order())).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH",
      details: ["Idempotency-Key: was first used with a different request"],
    });
    expect(await deps.repository.collection.count({})).toBe(1);
    expect(await outbox.count({})).toBe(writes);
  });

  it("refuses a second checkout with a referenceId the project uses, naming the field; other projects may use it", async () => {
    const { deps, outbox } = await setup();
    await createCheckout(deps, caller(), order({ referenceId: "order-dup" }));
    const second = caller();
    await expect(createCheckout(deps, second, order({ referenceId: "order-dup" }))).rejects.toMatchObject({
      code: "RESOURCE_ALREADY_EXISTS",
      details: ["referenceId: a checkout with this reference already exists"],
    });
    expect(await deps.repository.collection.count({})).toBe(1);
    expect(await outbox.count({})).toBe(2);
    // Nothing was written under the refused request's key: it is free for a corrected request.
    expect((await createCheckout(deps, second, order({ referenceId: "order-dup-2" }))).checkout.status).toBe("pending");
    expect((await createCheckout(deps, caller("prj_other"), order({ referenceId: "order-dup" }))).checkout.status).toBe("pending");
  });

  it("refuses live mode without a provider with PROVIDER_NOT_CONFIGURED, and writes nothing", async () => {
    const { deps, outbox } = await setup();
    await expect(createCheckout(deps, caller("prj_shop", "live"), order())).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    expect(await deps.repository.collection.count({})).toBe(0);
    expect(await outbox.count({})).toBe(0);
  });

  it("answers providerPending when the provider is late, and the checkout becomes pending by itself when it answers", async () => {
    const { deps, eventsOf } = await setup({ sandbox: { delayMs: 300 }, providerTimeoutMs: 20 });
    const { checkout, providerPending } = await createCheckout(deps, caller(), order({ amountMinor: DELAY }));
    expect(providerPending).toBe(true);
    expect(checkout).toMatchObject({ status: "created", aggregateVersion: 1, amountMinor: DELAY });
    expect(checkout.checkoutUrl).toBeUndefined();
    const opened = await vi.waitFor(
      async () => {
        const current = await getCheckout(deps, caller(), checkout._id);
        expect(current.status).toBe("pending");
        return current;
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(opened.checkoutUrl).toBe(`/sandbox/checkouts/${checkout._id}?token=${opened.pageToken}`);
    expect(await eventsOf(checkout._id)).toEqual([
      ["payments.checkout.created", 1, "CREATED"],
      ["payments.checkout.pending", 2, "PENDING"],
    ]);
  });
});

describe("a checkout whose provider answer was lost", () => {
  /** The sandbox's silence scenario, unanswered for an hour (a test never outlives it). */
  const silent = { sandbox: { silenceMs: 3_600_000 } };
  const answering = (deps: CheckoutsDeps): CheckoutsDeps => ({ ...deps, providers: { test: sandbox() } });

  it("is PAYMENT_OUTCOME_UNKNOWN, kept created, until a retry with its key finds the provider's session", async () => {
    const { deps, eventsOf } = await setup(silent);
    const who = caller();
    const input = order({ amountMinor: SILENCE });
    await expect(createCheckout(deps, who, input)).rejects.toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN" });
    const [kept] = await deps.repository.collection.find({});
    expect(kept).toMatchObject({ status: "created", aggregateVersion: 1, amountMinor: SILENCE });
    // Still unanswered: the retry says so again and changes nothing.
    await expect(createCheckout(deps, who, input)).rejects.toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN" });
    expect(await eventsOf(kept!._id)).toEqual([["payments.checkout.created", 1, "CREATED"]]);

    // The provider answers now (another replica of the sandbox: its answers are a function of the request).
    const { checkout, providerPending } = await createCheckout(answering(deps), who, input);
    expect(providerPending).toBe(false);
    expect(checkout).toMatchObject({ _id: kept!._id, status: "pending", aggregateVersion: 2 });
    expect(checkout.checkoutUrl).toBe(`/sandbox/checkouts/${kept!._id}?token=${checkout.pageToken}`);
    expect(await eventsOf(kept!._id)).toEqual([
      ["payments.checkout.created", 1, "CREATED"],
      ["payments.checkout.pending", 2, "PENDING"],
    ]);
  });

  it("is opened by the stale sweep once older than the sweep's age, without a retry", async () => {
    const { deps, eventsOf } = await setup(silent);
    await expect(createCheckout(deps, caller(), order({ amountMinor: SILENCE }))).rejects.toMatchObject({
      code: "PAYMENT_OUTCOME_UNKNOWN",
    });
    const [kept] = await deps.repository.collection.find({});
    expect(await reconcileStaleCheckouts(answering(deps), 3_600_000)).toBe(0);
    expect(await reconcileStaleCheckouts(deps, 0)).toBe(0);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(kept!.createdAt.getTime()), { timeout: 1_000, interval: 1 });
    expect(await reconcileStaleCheckouts(answering(deps), 0)).toBe(1);
    expect(await getCheckout(deps, caller(), kept!._id)).toMatchObject({ status: "pending", aggregateVersion: 2 });
    expect(await reconcileStaleCheckouts(answering(deps), 0)).toBe(0);
    expect((await eventsOf(kept!._id)).map(([type]) => type)).toEqual(["payments.checkout.created", "payments.checkout.pending"]);
  });

  it("stays cancelled when the merchant cancels it before the provider answers", async () => {
    const { deps, eventsOf } = await setup(silent);
    const who = caller();
    const input = order({ amountMinor: SILENCE });
    await expect(createCheckout(deps, who, input)).rejects.toMatchObject({ code: "PAYMENT_OUTCOME_UNKNOWN" });
    const [kept] = await deps.repository.collection.find({});
    expect(await cancelCheckout(deps, caller(), kept!._id)).toMatchObject({ status: "cancelled", aggregateVersion: 2 });
    expect(await createCheckout(answering(deps), who, input)).toMatchObject({ checkout: { status: "cancelled" }, providerPending: false });
    expect((await eventsOf(kept!._id)).map(([type]) => type)).toEqual(["payments.checkout.created", "payments.checkout.cancelled"]);
  });

  it("cannot be paid before it is open: INVALID_STATE_TRANSITION", async () => {
    const { deps } = await setup(silent);
    await expect(createCheckout(deps, caller(), order({ amountMinor: SILENCE }))).rejects.toMatchObject({
      code: "PAYMENT_OUTCOME_UNKNOWN",
    });
    const [kept] = await deps.repository.collection.find({});
    await expect(simulateCheckoutOutcome(deps, caller(), kept!._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });
});

describe("getCheckout and getCheckoutByReference", () => {
  it("find a checkout by id and by referenceId within its project and environment only", async () => {
    const { deps } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order({ referenceId: "order-find" }));
    expect(await getCheckout(deps, caller(), checkout._id)).toEqual(checkout);
    expect(await getCheckoutByReference(deps, caller(), "order-find")).toEqual(checkout);
    for (const outsider of [caller("prj_other"), caller("prj_shop", "live")]) {
      await expect(getCheckout(deps, outsider, checkout._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
      await expect(getCheckoutByReference(deps, outsider, "order-find")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    }
    await expect(getCheckout(deps, caller(), "chk_unknown")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });
});

describe("cancelCheckout", () => {
  it("cancels an unpaid checkout, announced checkout.cancelled; its key answers the same again, another key is refused", async () => {
    const { deps, eventsOf } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    const key = caller();
    const cancelled = await cancelCheckout(deps, key, checkout._id);
    expect(cancelled).toMatchObject({ status: "cancelled", aggregateVersion: 3, amountMinor: 1_250_00 });
    expect(await cancelCheckout(deps, key, checkout._id)).toEqual(cancelled);
    await expect(cancelCheckout(deps, caller(), checkout._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect((await eventsOf(checkout._id)).at(-1)).toEqual(["payments.checkout.cancelled", 3, "CANCELLED"]);
    expect(await eventsOf(checkout._id)).toHaveLength(3);
  });

  it("refuses to cancel a paid checkout, or another project's", async () => {
    const { deps } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    await expect(cancelCheckout(deps, caller("prj_other"), checkout._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await simulateCheckoutOutcome(deps, caller(), checkout._id, "pay");
    await expect(cancelCheckout(deps, caller(), checkout._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect((await getCheckout(deps, caller(), checkout._id)).status).toBe("paid");
  });
});

describe("simulateCheckoutOutcome", () => {
  it("pay → paid with the whole amount refundable, announced checkout.paid", async () => {
    const { deps, eventsOf } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order({ amountMinor: 99_95 }));
    const paid = await simulateCheckoutOutcome(deps, caller(), checkout._id, "pay");
    expect(paid).toMatchObject({ status: "paid", amountMinor: 99_95, refundableMinor: 99_95, aggregateVersion: 3 });
    expect((await eventsOf(checkout._id)).at(-1)).toEqual(["payments.checkout.paid", 3, "PAID"]);
  });

  it("fail, and pay in the decline scenario (by amount or by metadata), → failed, announced checkout.failed", async () => {
    const { deps, eventsOf } = await setup();
    const inputs = [order(), order({ amountMinor: DECLINE }), order({ metadata: { bayad_sandbox_scenario: "decline" } })];
    const outcomes = ["fail", "pay", "pay"] as const;
    for (const [i, input] of inputs.entries()) {
      const { checkout } = await createCheckout(deps, caller(), input);
      const failed = await simulateCheckoutOutcome(deps, caller(), checkout._id, outcomes[i]!);
      expect(failed).toMatchObject({ status: "failed", aggregateVersion: 3 });
      expect(failed.refundableMinor).toBeUndefined();
      expect((await eventsOf(checkout._id)).at(-1)).toEqual(["payments.checkout.failed", 3, "FAILED"]);
    }
  });

  it("expire → expired, announced checkout.expired; an ended checkout moves no further", async () => {
    const { deps, eventsOf } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    expect(await simulateCheckoutOutcome(deps, caller(), checkout._id, "expire")).toMatchObject({ status: "expired", aggregateVersion: 3 });
    expect((await eventsOf(checkout._id)).at(-1)).toEqual(["payments.checkout.expired", 3, "EXPIRED"]);
    for (const outcome of ["pay", "fail", "expire"] as const) {
      await expect(simulateCheckoutOutcome(deps, caller(), checkout._id, outcome)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    }
    await expect(cancelCheckout(deps, caller(), checkout._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await eventsOf(checkout._id)).toHaveLength(3);
  });

  it("is refused in live mode before anything is looked up, and for another project's checkout", async () => {
    const { deps } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    await expect(simulateCheckoutOutcome(deps, caller("prj_shop", "live"), checkout._id, "pay")).rejects.toMatchObject({ code: "TEST_MODE_ONLY" });
    await expect(simulateCheckoutOutcome(deps, caller("prj_other"), checkout._id, "pay")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect((await getCheckout(deps, caller(), checkout._id)).status).toBe("pending");
  });
});

describe("the sandbox's hosted checkout page", () => {
  it("shows the checkout for its page token only, and the payer's payment there pays it", async () => {
    const { deps, eventsOf } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    const token = checkout.pageToken!;
    expect((await getHostedCheckout(deps, checkout._id, token))._id).toBe(checkout._id);
    for (const wrong of ["", "x".repeat(token.length)]) {
      await expect(getHostedCheckout(deps, checkout._id, wrong)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
      await expect(submitHostedCheckout(deps, checkout._id, wrong, "pay")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    }
    expect((await getCheckout(deps, caller(), checkout._id)).status).toBe("pending");
    expect(await submitHostedCheckout(deps, checkout._id, token, "pay")).toMatchObject({ status: "paid", refundableMinor: 1_250_00 });
    expect((await eventsOf(checkout._id)).map(([type]) => type)).toEqual([
      "payments.checkout.created",
      "payments.checkout.pending",
      "payments.checkout.paid",
    ]);
  });

  it("lets the payer give up: failed", async () => {
    const { deps } = await setup();
    const { checkout } = await createCheckout(deps, caller(), order());
    expect((await submitHostedCheckout(deps, checkout._id, checkout.pageToken!, "fail")).status).toBe("failed");
  });
});
