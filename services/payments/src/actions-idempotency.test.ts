import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CheckoutStatus, PaymentIntentStatus, PaymentsService, RefundStatus, SimulatedOutcome } from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { createSandboxProvider, type PaymentProvider } from "@bayad/provider";
import { readPaymentsConfig } from "./config.js";
import { startPaymentsServer } from "./server.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const newKey = () => `actions-key-${String(++keys).padStart(8, "0")}`;
const as = (idempotencyKey = newKey()) => ({
  headers: callerHeaders({ projectId: "prj_actions", environment: "test", correlationId: "actions-test", idempotencyKey }),
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => Code[ConnectError.from(error).code],
  );

/** The sandbox, counting the confirmations that reach it and holding each until released. */
function countingProvider() {
  const sandbox = createSandboxProvider({ secret: "actions-sandbox-secret", delayMs: 0, silenceMs: 0 });
  const confirmations: string[] = [];
  const provider: PaymentProvider = {
    ...sandbox,
    async confirmPaymentIntent(request, context) {
      confirmations.push(context.idempotencyKey);
      // Give racing confirms every chance to reach the provider too.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return sandbox.confirmPaymentIntent(request, context);
    },
  };
  return { provider, confirmations };
}

/**
 * The gateway's reconciler re-drives an action whose outcome it did not learn with the same
 * Idempotency-Key; over a real transport, the service answers that retry as it answered the
 * first call (not INVALID_STATE_TRANSITION), and does the action once.
 */
describe("payments actions, repeated with their Idempotency-Key over gRPC", () => {
  let server: RunningServer;
  let payments: Client<typeof PaymentsService>;
  const counting = countingProvider();

  beforeAll(async () => {
    server = await startPaymentsServer({
      store: createTestStore(),
      config: readPaymentsConfig({}),
      logger: createLogger("test", "silent"),
      providers: { test: counting.provider },
    });
    payments = createClient(PaymentsService, createGrpcTransport({ baseUrl: server.url }));
  });
  afterAll(() => server.close());

  const amount = (amountMinor: bigint) => ({ amountMinor, currency: "PHP" });
  const newCheckout = async () =>
    (
      await payments.createCheckout(
        { referenceId: `order-${newKey()}`, amount: amount(100_00n), successUrl: "https://x.ph/ok", cancelUrl: "https://x.ph/no" },
        as(),
      )
    ).checkout!;
  const newIntent = async (amountMinor = 50_00n) =>
    (await payments.createPaymentIntent({ referenceId: `intent-${newKey()}`, amount: amount(amountMinor) }, as())).paymentIntent!;

  it("cancelCheckout: the same key answers the cancelled checkout again; another key → INVALID_STATE_TRANSITION", async () => {
    const { checkoutId } = await newCheckout();
    const key = newKey();
    const first = await payments.cancelCheckout({ checkoutId }, as(key));
    const again = await payments.cancelCheckout({ checkoutId }, as(key));
    expect(first.checkout?.status).toBe(CheckoutStatus.CANCELLED);
    expect(again.checkout).toEqual(first.checkout);
    expect(await codeOf(payments.cancelCheckout({ checkoutId }, as()))).toBe("FailedPrecondition");
  });

  it("the checkout test helpers answer their retries as the first time, even after the checkout moved on", async () => {
    const { checkoutId } = await newCheckout();
    const key = newKey();
    const paid = await payments.simulateCheckoutOutcome({ checkoutId, outcome: SimulatedOutcome.SUCCEED }, as(key));
    expect(paid.checkout?.status).toBe(CheckoutStatus.PAID);
    expect(await payments.simulateCheckoutOutcome({ checkoutId, outcome: SimulatedOutcome.SUCCEED }, as(key))).toEqual(paid);
    expect(await codeOf(payments.simulateCheckoutOutcome({ checkoutId, outcome: SimulatedOutcome.SUCCEED }, as()))).toBe("FailedPrecondition");

    const open = await newCheckout();
    const expireKey = newKey();
    const expired = await payments.simulateCheckoutOutcome({ checkoutId: open.checkoutId, outcome: SimulatedOutcome.EXPIRE }, as(expireKey));
    expect(expired.checkout?.status).toBe(CheckoutStatus.EXPIRED);
    expect(await payments.simulateCheckoutOutcome({ checkoutId: open.checkoutId, outcome: SimulatedOutcome.EXPIRE }, as(expireKey))).toEqual(expired);
  });

  it("confirm, the intent test helpers and cancelPaymentIntent answer their retries with their first outcome", async () => {
    const intent = await newIntent();
    const confirmKey = newKey();
    const confirmed = await payments.confirmPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as(confirmKey));
    expect(confirmed.paymentIntent?.status).toBe(PaymentIntentStatus.PROCESSING);
    const succeedKey = newKey();
    const succeeded = await payments.simulatePaymentIntentOutcome(
      { paymentIntentId: intent.paymentIntentId, outcome: SimulatedOutcome.SUCCEED },
      as(succeedKey),
    );
    expect(succeeded.paymentIntent?.status).toBe(PaymentIntentStatus.SUCCEEDED);
    // The confirm's retry after the intent succeeded: the intent as the confirm left it.
    expect(await payments.confirmPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as(confirmKey))).toEqual(confirmed);
    expect(
      await payments.simulatePaymentIntentOutcome({ paymentIntentId: intent.paymentIntentId, outcome: SimulatedOutcome.SUCCEED }, as(succeedKey)),
    ).toEqual(succeeded);
    expect(await codeOf(payments.confirmPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as()))).toBe("FailedPrecondition");

    const other = await newIntent();
    const cancelKey = newKey();
    const cancelled = await payments.cancelPaymentIntent({ paymentIntentId: other.paymentIntentId }, as(cancelKey));
    expect(await payments.cancelPaymentIntent({ paymentIntentId: other.paymentIntentId }, as(cancelKey))).toEqual(cancelled);
    expect(await codeOf(payments.cancelPaymentIntent({ paymentIntentId: other.paymentIntentId }, as()))).toBe("FailedPrecondition");
  });

  it("the refund test helpers answer their retries as the first time", async () => {
    const { checkoutId } = await newCheckout();
    await payments.simulateCheckoutOutcome({ checkoutId, outcome: SimulatedOutcome.SUCCEED }, as());
    const { refund } = await payments.createRefund({ paymentId: checkoutId, amount: amount(10_00n), reason: "r" }, as());
    const key = newKey();
    const failed = await payments.simulateRefundOutcome({ refundId: refund!.refundId, outcome: SimulatedOutcome.FAIL }, as(key));
    expect(failed.refund?.status).toBe(RefundStatus.FAILED);
    expect(await payments.simulateRefundOutcome({ refundId: refund!.refundId, outcome: SimulatedOutcome.FAIL }, as(key))).toEqual(failed);
    expect(await codeOf(payments.simulateRefundOutcome({ refundId: refund!.refundId, outcome: SimulatedOutcome.SUCCEED }, as()))).toBe(
      "FailedPrecondition",
    );
  });

  it("refuses a key first used for another action or resource", async () => {
    const { checkoutId } = await newCheckout();
    const key = newKey();
    await payments.cancelCheckout({ checkoutId }, as(key));
    const other = await newCheckout();
    expect(await codeOf(payments.cancelCheckout({ checkoutId: other.checkoutId }, as(key)))).toBe("FailedPrecondition");
    expect((await payments.getCheckout({ checkoutId: other.checkoutId }, as())).checkout?.status).toBe(CheckoutStatus.PENDING);
  });

  it("lets only one of racing confirms reach the provider", async () => {
    const intent = await newIntent();
    const before = counting.confirmations.length;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => codeOf(payments.confirmPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as()))),
    );
    expect(counting.confirmations.length - before).toBe(1);
    expect(outcomes.filter((outcome) => outcome === "resolved")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome !== "resolved").every((outcome) => outcome === "FailedPrecondition")).toBe(true);
    const read = await payments.getPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as());
    expect(read.paymentIntent?.status).toBe(PaymentIntentStatus.PROCESSING);
  });

  it("does not let a cancel land while a confirmation is with the provider", async () => {
    const intent = await newIntent();
    const confirming = payments.confirmPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as());
    // The confirmation is claimed before the provider answers (the provider holds it 20 ms).
    const before = counting.confirmations.length;
    await vi.waitFor(() => expect(counting.confirmations.length).toBeGreaterThan(before), { timeout: 5_000, interval: 1 });
    expect(await codeOf(payments.cancelPaymentIntent({ paymentIntentId: intent.paymentIntentId }, as()))).toBe("FailedPrecondition");
    expect((await confirming).paymentIntent?.status).toBe(PaymentIntentStatus.PROCESSING);
  });
});
