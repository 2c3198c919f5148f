import { describe, expect, it } from "vitest";
import { PaymentMethod } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider, type PaymentProvider } from "@bayad/provider";
import { paymentIntentToProto } from "./payment-intent.js";
import { createPaymentIntentsRepository } from "./payment-intents-repository.js";
import {
  applyProviderPaymentIntentOutcome,
  cancelPaymentIntent,
  confirmPaymentIntent,
  createQrPhPaymentIntent,
  getPaymentIntent,
  simulatePaymentIntentOutcome,
  type PaymentIntentsDeps,
} from "./payment-intents.js";
import { createRedirectPaymentIntent, getHostedPaymentIntent, submitHostedPaymentIntent } from "./redirect-payment-intents.js";
import { createTestStore } from "@bayad/store/testing";

const sandbox = createSandboxProvider({ secret: "s".repeat(32), delayMs: 0, silenceMs: 0 });

async function setup(options: { test?: PaymentProvider; account?: PaymentProvider } = {}) {
  const store = createTestStore();
  const account = options.account;
  const deps: PaymentIntentsDeps = {
    store,
    repository: createPaymentIntentsRepository(store),
    outbox: createOutbox(store, "payments"),
    providers: {
      test: options.test ?? sandbox,
      ...(account
        ? { accounts: { forProject: async () => ({ providerAccountId: "pa_shop", provider: account }), forAccount: async () => account } }
        : {}),
    },
    logger: createLogger("test", "silent"),
    now: () => new Date(),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000, now: () => new Date() }),
    providerLeaseMs: 30_000,
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  const eventsOf = async (resourceId: string) =>
    (await outbox.find({ resourceId }, { sort: { aggregateVersion: 1 } })).map((e) => e.subject.replace("bayad.events.payments.", ""));
  return { deps, eventsOf };
}

let keys = 0;
const caller = () => {
  keys += 1;
  return { projectId: "prj_a", environment: "test" as const, correlationId: "c", idempotencyKey: `key-${String(keys).padStart(16, "0")}` };
};
const gcash = (amountMinor = 1500_00, returnUrl = "https://shop.example.ph/orders/1") => ({
  referenceId: "order-1",
  amountMinor,
  paymentMethod: { type: "gcash" },
  returnUrl,
});
const tokenOf = (redirectUrl: string | undefined) => new URL(redirectUrl!, "http://gateway").searchParams.get("token")!;

describe("createRedirectPaymentIntent", () => {
  it("makes the intent at the provider at once: requires_action (stored awaiting_next_action) with the page to send the payer to", async () => {
    const { deps, eventsOf } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect(intent).toMatchObject({ status: "awaiting_next_action", paymentMethod: "gcash", returnUrl: "https://shop.example.ph/orders/1" });
    expect(intent.providerReference).toMatch(/^pi_sandbox_/);
    expect(intent.redirectUrl).toBe(`/sandbox/intents/${intent._id}?token=${intent.pageToken}`);
    expect(paymentIntentToProto(intent)).toMatchObject({
      paymentMethod: PaymentMethod.GCASH,
      returnUrl: "https://shop.example.ph/orders/1",
      nextAction: { type: "redirect", url: intent.redirectUrl },
    });
    expect(await eventsOf(intent._id)).toEqual(["payment_intent.awaiting_next_action"]);
  });

  it("keeps the bank of an online-banking intent", async () => {
    const { deps } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), { ...gcash(), paymentMethod: { type: "online_banking", bankCode: "bdo" } });
    expect(intent).toMatchObject({ paymentMethod: "online_banking", bankCode: "bdo" });
    expect(paymentIntentToProto(intent)).toMatchObject({ paymentMethod: PaymentMethod.ONLINE_BANKING, bankCode: "bdo" });
  });

  it("returns the intent it created for a repeated Idempotency-Key", async () => {
    const { deps } = await setup();
    const who = caller();
    const [first, second] = await Promise.all([createRedirectPaymentIntent(deps, who, gcash()), createRedirectPaymentIntent(deps, who, gcash())]);
    expect(second!._id).toBe(first!._id);
    expect(await deps.repository.collection.count({})).toBe(1);
  });

  it.each([
    ["no returnUrl", gcash(1500_00, ""), "returnUrl: is required for payment methods paid by redirect"],
    ["a relative returnUrl", gcash(1500_00, "/orders/1"), "returnUrl: must be an absolute http or https URL"],
    ["a javascript: returnUrl", gcash(1500_00, "javascript:alert(1)"), "returnUrl: must be an absolute http or https URL"],
    ["online banking without a bank", { ...gcash(), paymentMethod: { type: "online_banking" } }, "paymentMethod.bankCode: is required for online_banking"],
    ["an unknown bank", { ...gcash(), paymentMethod: { type: "online_banking", bankCode: "rcbc" } }, "paymentMethod.bankCode: must be one of bpi, ubp, bdo, landbank, metrobank"],
    ["a bank on an e-wallet", { ...gcash(), paymentMethod: { type: "gcash", bankCode: "bpi" } }, "paymentMethod.bankCode: only online_banking takes a bankCode"],
    ["a Checkout Session name", { ...gcash(), paymentMethod: { type: "brankas_bdo" } }, "paymentMethod.type: must be one of gcash, maya, grabpay, shopeepay, online_banking"],
  ])("refuses %s with VALIDATION_FAILED naming the field, writing nothing", async (_case, input, detail) => {
    const { deps } = await setup();
    await expect(createRedirectPaymentIntent(deps, caller(), input)).rejects.toMatchObject({ code: "VALIDATION_FAILED", details: [detail] });
    expect(await deps.repository.collection.count({})).toBe(0);
  });

  it("refuses a method the provider does not offer with PAYMENT_METHOD_NOT_OFFERED, before asking it", async () => {
    let asked = 0;
    const onlyGcash: PaymentProvider = {
      ...sandbox,
      paymentIntentMethods: [{ type: "gcash" }],
      createRedirectPaymentIntent: async (request, context) => {
        asked += 1;
        return sandbox.createRedirectPaymentIntent(request, context);
      },
    };
    const { deps } = await setup({ test: onlyGcash });
    await expect(createRedirectPaymentIntent(deps, caller(), { ...gcash(), paymentMethod: { type: "maya" } })).rejects.toMatchObject({
      code: "PAYMENT_METHOD_NOT_OFFERED",
      details: ["paymentMethod: maya is not offered here"],
    });
    expect(asked).toBe(0);
    expect(await deps.repository.collection.count({})).toBe(0);
  });
});

describe("the sandbox's redirect page", () => {
  it("pay: requires_action → processing → succeeded, all of it refundable", async () => {
    const { deps, eventsOf } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect((await getHostedPaymentIntent(deps, intent._id, tokenOf(intent.redirectUrl)))._id).toBe(intent._id);
    const paid = await submitHostedPaymentIntent(deps, intent._id, tokenOf(intent.redirectUrl), "pay");
    expect(paid).toMatchObject({ status: "succeeded", refundableMinor: 1500_00 });
    expect(paymentIntentToProto(paid).nextAction).toBeUndefined();
    expect(await eventsOf(intent._id)).toEqual(["payment_intent.awaiting_next_action", "payment_intent.processing", "payment_intent.succeeded"]);
  });

  it("fail, and pay in the decline scenario (1002 centavos), → failed", async () => {
    const { deps, eventsOf } = await setup();
    const gaveUp = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect((await submitHostedPaymentIntent(deps, gaveUp._id, tokenOf(gaveUp.redirectUrl), "fail")).status).toBe("failed");
    const declined = await createRedirectPaymentIntent(deps, caller(), gcash(1002));
    expect((await submitHostedPaymentIntent(deps, declined._id, tokenOf(declined.redirectUrl), "pay")).status).toBe("failed");
    expect(await eventsOf(declined._id)).toEqual(["payment_intent.awaiting_next_action", "payment_intent.processing", "payment_intent.failed"]);
  });

  it("does not exist for a wrong token, nor for a QR Ph intent's token", async () => {
    const { deps } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    await expect(getHostedPaymentIntent(deps, intent._id, "wrong")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    const qr = await createQrPhPaymentIntent(deps, caller(), { referenceId: "qr-1", amountMinor: 250_00, description: "Kape", expirySeconds: 0 });
    await expect(getHostedPaymentIntent(deps, qr._id, qr.pageToken!)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });

  it("cannot be paid twice", async () => {
    const { deps } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    await submitHostedPaymentIntent(deps, intent._id, tokenOf(intent.redirectUrl), "pay");
    await expect(submitHostedPaymentIntent(deps, intent._id, tokenOf(intent.redirectUrl), "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });
});

describe("a redirect intent's other moves", () => {
  it("is never confirmed (the payer confirms on the page), and can be cancelled until the payer pays", async () => {
    const { deps } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    await expect(confirmPaymentIntent(deps, caller(), intent._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect((await cancelPaymentIntent(deps, caller(), intent._id)).status).toBe("cancelled");
    await expect(submitHostedPaymentIntent(deps, intent._id, tokenOf(intent.redirectUrl), "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });

  it("is settled by the test helpers as by its page", async () => {
    const { deps } = await setup();
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect((await simulatePaymentIntentOutcome(deps, caller(), intent._id, "pay")).status).toBe("succeeded");
    const other = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect((await simulatePaymentIntentOutcome(deps, caller(), other._id, "fail")).status).toBe("failed");
  });

  it("follows the provider's reports: processing, then succeeded with its payment", async () => {
    const { deps } = await setup({ account: sandbox });
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect(intent.providerAccountId).toBe("pa_shop");
    const report = (outcome: Parameters<typeof applyProviderPaymentIntentOutcome>[3]) =>
      applyProviderPaymentIntentOutcome(deps, "pa_shop", intent.providerReference!, outcome);
    expect((await report({ status: "processing" }))?.status).toBe("processing");
    // A late or repeated processing report leaves it where it is.
    expect((await report({ status: "processing" }))?.status).toBe("processing");
    expect(await report({ status: "succeeded", providerPaymentId: "pay_1" })).toMatchObject({ status: "succeeded", providerPaymentId: "pay_1" });
    expect((await report({ status: "processing" }))?.status).toBe("succeeded");
    expect((await getPaymentIntent(deps, caller(), intent._id)).refundableMinor).toBe(1500_00);
  });

  it("fails on the provider's report while the payer has yet to act", async () => {
    const { deps } = await setup({ account: sandbox });
    const intent = await createRedirectPaymentIntent(deps, caller(), gcash());
    expect((await applyProviderPaymentIntentOutcome(deps, "pa_shop", intent.providerReference!, { status: "failed" }))?.status).toBe("failed");
  });
});
