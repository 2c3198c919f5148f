import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { ErrorDetailSchema, PaymentsService, SimulatedOutcome } from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { createSandboxProvider, ProviderRefusedRefundError, type PaymentProvider } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { readPaymentsConfig } from "../config.js";
import { startPaymentsServer } from "../server.js";
import type { RefundRecord } from "./refund.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const newKey = () => `refund-refusal-key-${String(++keys).padStart(6, "0")}`;
const as = (idempotencyKey = newKey()) => ({
  headers: callerHeaders({ projectId: "prj_refusals", environment: "test", correlationId: "refund-refusals", idempotencyKey }),
});

/** Amounts the test provider answers in its own way. */
const REFUSED_BY_RULE = 13_00;
const REFUSED_AT_PROVIDER = 7_77;
const LOST_THEN_REFUSED = 6_66;

/**
 * The sandbox with rules of its own, as a real provider's adapter has: a published rule refuses
 * REFUSED_BY_RULE and any refund while another is open; the provider itself refuses
 * REFUSED_AT_PROVIDER, and LOST_THEN_REFUSED once its first answer was lost.
 */
function ruledProvider() {
  const sandbox = createSandboxProvider({ secret: "refund-refusals-secret", delayMs: 0, silenceMs: 0 });
  const asked: string[] = [];
  const refusal = (detail: string) => new ProviderRefusedRefundError("REFUND_NOT_ALLOWED", undefined, { details: [detail] });
  const provider: PaymentProvider = {
    ...sandbox,
    refundRefusal(payment, amountMinor) {
      if (payment.openRefunds > 0) return new ProviderRefusedRefundError("REFUND_IN_PROGRESS", undefined, { details: ["paymentId: one at a time (rule: refund_in_progress)"] });
      return amountMinor === REFUSED_BY_RULE ? refusal("amount.amountMinor: not this amount (rule: test_rule)") : undefined;
    },
    async createRefund(request, context) {
      asked.push(request.refundId);
      const times = asked.filter((id) => id === request.refundId).length;
      if (request.amount.amountMinor === REFUSED_AT_PROVIDER) throw refusal("provider: available_balance_insufficient");
      if (request.amount.amountMinor === LOST_THEN_REFUSED) {
        if (times === 1) throw new Error("connection reset");
        throw refusal("provider: parameter_above_maximum");
      }
      return sandbox.createRefund(request, context);
    },
  };
  return { provider, asked };
}

/** The catalogue code and details a failed call answered with. */
async function refusalOf(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => ConnectError.from(thrown),
  );
  const detail = error?.findDetails(ErrorDetailSchema)[0];
  return { grpc: error === undefined ? undefined : Code[error.code], code: detail?.code, details: detail?.details };
}

describe("refunds a provider refuses", () => {
  let server: RunningServer;
  let store: Store;
  let payments: Client<typeof PaymentsService>;
  const ruled = ruledProvider();
  const refunds = () => store.collection<RefundRecord>({ name: "refunds" });
  const refundableOf = async (checkoutId: string) =>
    (await store.collection<{ _id: string; refundableMinor?: number }>({ name: "checkouts" }).findOne({ _id: checkoutId }))?.refundableMinor;

  beforeAll(async () => {
    store = createTestStore();
    server = await startPaymentsServer({
      store,
      config: readPaymentsConfig({ PAYMENTS_PROVIDER_LEASE_MS: "1000", PAYMENTS_RECONCILE_INTERVAL_MS: "50" }),
      logger: createLogger("test", "silent"),
      providers: { test: ruled.provider },
    });
    payments = createClient(PaymentsService, createGrpcTransport({ baseUrl: server.url }));
  });
  afterAll(() => server.close());

  async function paidCheckout(amountMinor = 100_00) {
    const { checkout } = await payments.createCheckout(
      { referenceId: `refusal-order-${newKey()}`, amount: { amountMinor: BigInt(amountMinor), currency: "PHP" }, successUrl: "https://x.ph/ok", cancelUrl: "https://x.ph/no" },
      as(),
    );
    await payments.simulateCheckoutOutcome({ checkoutId: checkout!.checkoutId, outcome: SimulatedOutcome.SUCCEED }, as());
    return checkout!.checkoutId;
  }

  const refund = (paymentId: string, amountMinor: number, key = newKey()) =>
    payments.createRefund({ paymentId, amount: { amountMinor: BigInt(amountMinor), currency: "PHP" }, reason: "r" }, as(key));

  it("refuses by the provider's published rule before anything is written or the provider is asked", async () => {
    const checkoutId = await paidCheckout();
    const asked = ruled.asked.length;
    expect(await refusalOf(refund(checkoutId, REFUSED_BY_RULE))).toEqual({
      grpc: "FailedPrecondition",
      code: "REFUND_NOT_ALLOWED",
      details: ["amount.amountMinor: not this amount (rule: test_rule)"],
    });
    expect(await refunds().count({ paymentId: checkoutId })).toBe(0);
    expect(await refundableOf(checkoutId)).toBe(100_00);
    expect(ruled.asked.length).toBe(asked);
  });

  it("refuses a second refund while the first is pending, and takes one once it settled", async () => {
    const checkoutId = await paidCheckout();
    const { refund: first } = await refund(checkoutId, 10_00);
    expect((await refusalOf(refund(checkoutId, 10_00))).code).toBe("REFUND_IN_PROGRESS");
    expect(await refunds().count({ paymentId: checkoutId })).toBe(1);
    expect(await refundableOf(checkoutId)).toBe(90_00);
    await payments.simulateRefundOutcome({ refundId: first!.refundId, outcome: SimulatedOutcome.SUCCEED }, as());
    expect((await refund(checkoutId, 10_00)).refund?.refundId).toMatch(/^ref_/);
  });

  it("fails a refund the provider refuses, gives its amount back, and answers the refusal", async () => {
    const checkoutId = await paidCheckout();
    expect(await refusalOf(refund(checkoutId, REFUSED_AT_PROVIDER))).toEqual({
      grpc: "FailedPrecondition",
      code: "REFUND_NOT_ALLOWED",
      details: ["provider: available_balance_insufficient"],
    });
    const stored = await refunds().find({ paymentId: checkoutId });
    expect(stored.map((record) => record.status)).toEqual(["failed"]);
    expect(await refundableOf(checkoutId)).toBe(100_00);
    // Nothing is left pending, so the next refund is not held back by it.
    expect((await refund(checkoutId, 100_00)).refund?.refundId).toMatch(/^ref_/);
  });

  it("fails a refund the provider refuses when the sweep asks again after a lost answer", async () => {
    const checkoutId = await paidCheckout();
    const { refund: lost } = await refund(checkoutId, LOST_THEN_REFUSED);
    expect(await refundableOf(checkoutId)).toBe(100_00 - LOST_THEN_REFUSED);
    const failed = await vi.waitFor(
      async () => {
        const stored = await refunds().findOne({ _id: lost!.refundId });
        expect(stored?.status).toBe("failed");
        return stored!;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(failed.providerReference).toBeUndefined();
    expect(await refundableOf(checkoutId)).toBe(100_00);
  }, 20_000);
});
