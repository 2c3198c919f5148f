import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EventSchema } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider, parseQrPhPayload } from "@bayad/provider";
import { createPaymentIntentsRepository } from "./payment-intents-repository.js";
import {
  cancelPaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  createQrPhPaymentIntent,
  expireDuePaymentIntents,
  getPaymentIntent,
  getQrPhImage,
  simulatePaymentIntentOutcome,
  type PaymentIntentsDeps,
} from "./payment-intents.js";
import { createTestStore } from "@bayad/store/testing";

async function setup() {
  const store = createTestStore();
  const clock = { now: new Date("2030-01-01T00:00:00.000Z") };
  const deps: PaymentIntentsDeps = {
    store,
    repository: createPaymentIntentsRepository(store),
    outbox: createOutbox(store, "payments"),
    providers: { test: createSandboxProvider({ secret: "s".repeat(32), delayMs: 0, silenceMs: 0 }) },
    logger: createLogger("test", "silent"),
    now: () => clock.now,
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000, now: () => clock.now }),
    providerLeaseMs: 30_000,
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  const eventsOf = async (resourceId: string) =>
    (await outbox.find({ resourceId }, { sort: { aggregateVersion: 1 } })).map((e) => [e.subject.replace("bayad.events.payments.", ""), e.aggregateVersion]);
  const advance = (seconds: number) => {
    clock.now = new Date(clock.now.getTime() + seconds * 1000);
  };
  return { store, deps, outbox, eventsOf, advance };
}

let keys = 0;
const caller = (environment: "test" | "live" = "test") => {
  keys += 1;
  return { projectId: "prj_a", environment, correlationId: "c", idempotencyKey: `key-${String(keys).padStart(16, "0")}` };
};
const card = (amountMinor = 500_00) => ({ referenceId: "order-1", amountMinor });
const qr = (expirySeconds = 0, amountMinor = 250_00) => ({ referenceId: "qr-1", amountMinor, description: "Kape", expirySeconds });

describe("createPaymentIntent", () => {
  it("creates a card intent in requires_action with its payment_intent.requires_action event", async () => {
    const { deps, eventsOf, outbox } = await setup();
    const intent = await createPaymentIntent(deps, caller(), card());
    expect(intent).toMatchObject({ status: "requires_action", paymentMethod: "card", aggregateVersion: 1, amountMinor: 500_00 });
    expect(intent._id).toMatch(/^pi_[A-Za-z0-9]+$/);
    expect(await eventsOf(intent._id)).toEqual([["payment_intent.requires_action", 1]]);
    const [event] = await outbox.find({ resourceId: intent._id });
    const decoded = fromBinary(EventSchema, Buffer.from(event!.payload, "base64"));
    expect(decoded.snapshot.case === "paymentIntent" && decoded.snapshot.value.paymentIntentId).toBe(intent._id);
  });

  it("returns the intent it created, and writes no second event, for a repeated Idempotency-Key", async () => {
    const { deps, outbox } = await setup();
    const who = caller();
    const results = await Promise.all(Array.from({ length: 10 }, () => createPaymentIntent(deps, who, card())));
    expect(new Set(results.map((intent) => intent._id)).size).toBe(1);
    expect(await deps.repository.collection.count({})).toBe(1);
    expect(await outbox.count({})).toBe(1);
  });

  it("refuses live mode with PROVIDER_NOT_CONFIGURED and writes nothing", async () => {
    const { deps } = await setup();
    await expect(createPaymentIntent(deps, caller("live"), card())).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    await expect(createQrPhPaymentIntent(deps, caller("live"), qr())).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    expect(await deps.repository.collection.count({})).toBe(0);
  });
});

describe("card intent state table", () => {
  it("confirm → processing, succeed → succeeded with the whole amount refundable", async () => {
    const { deps, eventsOf } = await setup();
    const intent = await createPaymentIntent(deps, caller(), card());
    const processing = await confirmPaymentIntent(deps, caller(), intent._id);
    expect(processing).toMatchObject({ status: "processing", aggregateVersion: 2 });
    expect(processing.providerReference).toMatch(/^pi_sandbox_/);
    const succeeded = await simulatePaymentIntentOutcome(deps, caller(), intent._id, "pay");
    expect(succeeded).toMatchObject({ status: "succeeded", refundableMinor: 500_00, aggregateVersion: 3 });
    expect((await getPaymentIntent(deps, caller(), intent._id)).refundableMinor).toBe(500_00);
    expect(await eventsOf(intent._id)).toEqual([
      ["payment_intent.requires_action", 1],
      ["payment_intent.processing", 2],
      ["payment_intent.succeeded", 3],
    ]);
  });

  it("confirm of the decline scenario (1002 centavos) → failed", async () => {
    const { deps } = await setup();
    const intent = await createPaymentIntent(deps, caller(), card(1002));
    expect((await confirmPaymentIntent(deps, caller(), intent._id)).status).toBe("failed");
  });

  it("refuses every move the table does not list with INVALID_STATE_TRANSITION", async () => {
    const { deps, eventsOf } = await setup();
    const fresh = await createPaymentIntent(deps, caller(), card());
    await expect(simulatePaymentIntentOutcome(deps, caller(), fresh._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    const cancelled = await cancelPaymentIntent(deps, caller(), fresh._id);
    expect(cancelled.status).toBe("cancelled");
    await expect(confirmPaymentIntent(deps, caller(), fresh._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    await expect(cancelPaymentIntent(deps, caller(), fresh._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });

    const processing = await createPaymentIntent(deps, caller(), card());
    await confirmPaymentIntent(deps, caller(), processing._id);
    await expect(cancelPaymentIntent(deps, caller(), processing._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    await expect(confirmPaymentIntent(deps, caller(), processing._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await eventsOf(fresh._id)).toEqual([["payment_intent.requires_action", 1], ["payment_intent.cancelled", 2]]);
  });

  it("refuses the test helpers in live mode before looking anything up", async () => {
    const { deps } = await setup();
    await expect(simulatePaymentIntentOutcome(deps, caller("live"), "pi_unknown", "pay")).rejects.toMatchObject({ code: "TEST_MODE_ONLY" });
  });

  it("does not find another project's intent", async () => {
    const { deps } = await setup();
    const intent = await createPaymentIntent(deps, caller(), card());
    const other = { ...caller(), projectId: "prj_b" };
    await expect(getPaymentIntent(deps, other, intent._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(simulatePaymentIntentOutcome(deps, other, intent._id, "pay")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });
});

describe("createQrPhPaymentIntent", () => {
  it("creates the intent awaiting_next_action with the provider's code, expiring expirySeconds after creation", async () => {
    const { deps, eventsOf } = await setup();
    const intent = await createQrPhPaymentIntent(deps, caller(), qr(900));
    expect(intent).toMatchObject({ status: "awaiting_next_action", paymentMethod: "qrph", expirySeconds: 900, description: "Kape" });
    expect(intent.expiresAt!.getTime() - intent.createdAt.getTime()).toBe(900_000);
    expect(intent.qrCodeImageUrl).toBe(`/sandbox/qrph/${intent._id}.png?token=${intent.pageToken}`);
    expect(parseQrPhPayload(intent.qrPayload!)).toMatchObject({ amountMinor: 250_00, referenceId: "qr-1", paymentIntentId: intent._id, crcValid: true });
    expect(await eventsOf(intent._id)).toEqual([["payment_intent.awaiting_next_action", 1]]);
  });

  it("refuses, naming the field, a reference or amount a QR Ph code cannot carry, and writes nothing", async () => {
    const { deps, outbox } = await setup();
    await expect(createQrPhPaymentIntent(deps, caller(), { ...qr(), referenceId: "注文" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.stringMatching(/^referenceId: /)],
    });
    await expect(createQrPhPaymentIntent(deps, caller(), qr(0, 1_000_000_000_000))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.stringMatching(/^amount\.amountMinor: must be at most 999999999999/)],
    });
    expect(await deps.repository.collection.count({})).toBe(0);
    expect(await outbox.count({})).toBe(0);
    // The largest amount, and a reference whose accents fold to ASCII, are carried.
    expect(await createQrPhPaymentIntent(deps, caller(), { ...qr(0, 999_999_999_999), referenceId: "Parañaque" })).toMatchObject({
      status: "awaiting_next_action",
      referenceId: "Parañaque",
    });
  });

  it("defaults expirySeconds to 1800 and refuses one outside 60 to 9000", async () => {
    const { deps } = await setup();
    expect((await createQrPhPaymentIntent(deps, caller(), qr())).expirySeconds).toBe(1800);
    await expect(createQrPhPaymentIntent(deps, caller(), qr(59))).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(createQrPhPaymentIntent(deps, caller(), qr(9001))).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("is paid by scanning, never confirmed; it can be cancelled while unpaid", async () => {
    const { deps } = await setup();
    const paid = await createQrPhPaymentIntent(deps, caller(), qr());
    await expect(confirmPaymentIntent(deps, caller(), paid._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await simulatePaymentIntentOutcome(deps, caller(), paid._id, "pay")).toMatchObject({ status: "succeeded", refundableMinor: 250_00 });
    const failed = await createQrPhPaymentIntent(deps, caller(), qr());
    expect((await simulatePaymentIntentOutcome(deps, caller(), failed._id, "fail")).status).toBe("failed");
    const cancelled = await createQrPhPaymentIntent(deps, caller(), qr());
    expect((await cancelPaymentIntent(deps, caller(), cancelled._id)).status).toBe("cancelled");
  });
});

describe("expireDuePaymentIntents", () => {
  it("expires an unpaid QR Ph intent once its expiresAt has passed, with its event, and leaves a paid one", async () => {
    const { deps, eventsOf, advance } = await setup();
    const unpaid = await createQrPhPaymentIntent(deps, caller(), qr(60));
    const paid = await createQrPhPaymentIntent(deps, caller(), qr(60));
    await simulatePaymentIntentOutcome(deps, caller(), paid._id, "pay");

    advance(59);
    expect(await expireDuePaymentIntents(deps)).toBe(0);
    expect((await getPaymentIntent(deps, caller(), unpaid._id)).status).toBe("awaiting_next_action");

    advance(1);
    expect(await expireDuePaymentIntents(deps)).toBe(1);
    expect(await getPaymentIntent(deps, caller(), unpaid._id)).toMatchObject({ status: "expired", aggregateVersion: 2 });
    expect(await eventsOf(unpaid._id)).toEqual([["payment_intent.awaiting_next_action", 1], ["payment_intent.expired", 2]]);
    expect(await getPaymentIntent(deps, caller(), paid._id)).toMatchObject({ status: "succeeded", aggregateVersion: 2 });
    expect(await eventsOf(paid._id)).toEqual([["payment_intent.awaiting_next_action", 1], ["payment_intent.succeeded", 2]]);
  });

  it("expires each intent once when several replicas sweep at the same time", async () => {
    const { deps, eventsOf, advance } = await setup();
    const intent = await createQrPhPaymentIntent(deps, caller(), qr(60));
    advance(61);
    const counts = await Promise.all([expireDuePaymentIntents(deps), expireDuePaymentIntents(deps), expireDuePaymentIntents(deps)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await eventsOf(intent._id)).toEqual([["payment_intent.awaiting_next_action", 1], ["payment_intent.expired", 2]]);
  });

  it("refuses to pay a code past its expiry even before the sweep has reached it", async () => {
    const { deps, advance } = await setup();
    const intent = await createQrPhPaymentIntent(deps, caller(), qr(60));
    advance(60);
    await expect(simulatePaymentIntentOutcome(deps, caller(), intent._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect((await getPaymentIntent(deps, caller(), intent._id)).status).toBe("expired");
  });
});

describe("getQrPhImage", () => {
  it("renders the stored code as a PNG for the right page token only", async () => {
    const { deps } = await setup();
    const intent = await createQrPhPaymentIntent(deps, caller(), qr());
    const image = await getQrPhImage(deps, intent._id, intent.pageToken!);
    expect(image.png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(image.payload).toBe(intent.qrPayload);
    await expect(getQrPhImage(deps, intent._id, "x".repeat(intent.pageToken!.length))).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(getQrPhImage(deps, intent._id, "")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    const cardIntent = await createPaymentIntent(deps, caller(), card());
    await expect(getQrPhImage(deps, cardIntent._id, "")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });
});
