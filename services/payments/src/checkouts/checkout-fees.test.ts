import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBinary } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { EventSchema, PaymentMethod, PaymentsService, SimulatedOutcome } from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { outboxCollection, type OutboxRecord } from "@bayad/events";
import { createSandboxProvider, sandboxFeeMinor } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import { readPaymentsConfig } from "../config.js";
import { startPaymentsServer } from "../server.js";

let keys = 0;
const as = () => ({
  headers: callerHeaders({ projectId: "prj_fees", environment: "test", correlationId: "checkout-fees", idempotencyKey: `checkout-fees-${String(++keys).padStart(6, "0")}` }),
});
const php = (amountMinor: number) => ({ amountMinor: BigInt(amountMinor), currency: "PHP" });

/** Test mode's sandbox takes its fee table's fee of every payment it makes paid, and says which method. */
describe("fees of sandbox payments", () => {
  let server: RunningServer;
  let store: Store;
  let payments: Client<typeof PaymentsService>;

  beforeAll(async () => {
    store = createTestStore();
    server = await startPaymentsServer({
      store,
      config: readPaymentsConfig({ PAYMENTS_PROVIDER_LEASE_MS: "1000", PAYMENTS_RECONCILE_INTERVAL_MS: "50" }),
      logger: createLogger("test", "silent"),
      providers: { test: createSandboxProvider({ secret: "checkout-fees-secret", delayMs: 0, silenceMs: 0 }) },
    });
    payments = createClient(PaymentsService, createGrpcTransport({ baseUrl: server.url }));
  });
  afterAll(async () => {
    await server.close();
  });

  const eventsOf = async (resourceId: string) =>
    (await store.collection<OutboxRecord>(outboxCollection).find({ resourceId }, { sort: { aggregateVersion: 1 } })).map((record) =>
      fromBinary(EventSchema, Buffer.from(record.payload, "base64")),
    );

  it("a paid checkout's snapshot carries the card method and the table's fee; unpaid, neither", async () => {
    const { checkout } = await payments.createCheckout(
      { referenceId: "fees-order-1", amount: php(1_234_56), successUrl: "https://x.ph/ok", cancelUrl: "https://x.ph/no" },
      as(),
    );
    expect(checkout!.paymentMethod).toBe("");
    expect(checkout!.fee).toBeUndefined();
    const { checkout: paid } = await payments.simulateCheckoutOutcome({ checkoutId: checkout!.checkoutId, outcome: SimulatedOutcome.SUCCEED }, as());
    const fee = sandboxFeeMinor(1_234_56, "card");
    // 3.5% of 123456 is 4320.96 → 4321, plus ₱15.
    expect(fee).toBe(4_321 + 1_500);
    expect(paid).toMatchObject({ paymentMethod: "card", fee: { amountMinor: BigInt(fee), currency: "PHP" } });
    const events = await eventsOf(checkout!.checkoutId);
    const paidEvent = events.find((event) => event.type === "payments.checkout.paid");
    expect(paidEvent?.snapshot.case).toBe("checkout");
    expect(paidEvent?.snapshot.value).toMatchObject({ paymentMethod: "card", fee: { amountMinor: BigInt(fee) } });
    const pending = events.find((event) => event.type === "payments.checkout.pending");
    expect(pending?.snapshot.value).toMatchObject({ paymentMethod: "" });
    expect((pending?.snapshot.value as { fee?: unknown }).fee).toBeUndefined();
  });

  it("a declined checkout keeps no method and no fee", async () => {
    const { checkout } = await payments.createCheckout(
      { referenceId: "fees-order-2", amount: php(500_00), successUrl: "https://x.ph/ok", cancelUrl: "https://x.ph/no" },
      as(),
    );
    const { checkout: failed } = await payments.simulateCheckoutOutcome({ checkoutId: checkout!.checkoutId, outcome: SimulatedOutcome.FAIL }, as());
    expect(failed).toMatchObject({ paymentMethod: "" });
    expect(failed!.fee).toBeUndefined();
  });

  it("a refund copies the payment's provider and method when made, and the sandbox reports no refund fee", async () => {
    const { checkout } = await payments.createCheckout(
      { referenceId: "fees-order-3", amount: php(800_00), successUrl: "https://x.ph/ok", cancelUrl: "https://x.ph/no" },
      as(),
    );
    await payments.simulateCheckoutOutcome({ checkoutId: checkout!.checkoutId, outcome: SimulatedOutcome.SUCCEED }, as());
    const { refund } = await payments.createRefund({ paymentId: checkout!.checkoutId, amount: php(300_00), reason: "r" }, as());
    expect(refund).toMatchObject({ provider: "sandbox", providerAccountId: "", paymentMethod: "card" });
    expect(refund!.fee).toBeUndefined();
    const created = (await eventsOf(refund!.refundId))[0];
    expect(created?.snapshot.value).toMatchObject({ provider: "sandbox", paymentMethod: "card" });
  });

  it("a succeeded QR Ph intent carries the table's QR Ph fee", async () => {
    const { paymentIntent } = await payments.createQrPhPaymentIntent({ referenceId: "fees-qr-1", amount: php(2_000_00), description: "QR" }, as());
    expect(paymentIntent!.paymentMethod).toBe(PaymentMethod.QRPH);
    const { paymentIntent: paid } = await payments.simulatePaymentIntentOutcome({ paymentIntentId: paymentIntent!.paymentIntentId, outcome: SimulatedOutcome.SUCCEED }, as());
    expect(paid!.fee).toEqual(expect.objectContaining({ amountMinor: BigInt(sandboxFeeMinor(2_000_00, "qrph")) }));
    expect(sandboxFeeMinor(2_000_00, "qrph")).toBe(3_000);
  });
});
