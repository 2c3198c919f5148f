import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { PaymentsService, RefundStatus, SimulatedOutcome } from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { createSandboxProvider, type PaymentProvider } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { readPaymentsConfig } from "../config.js";
import { startPaymentsServer } from "../server.js";
import type { RefundRecord } from "./refund.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const newKey = () => `refund-sweep-key-${String(++keys).padStart(6, "0")}`;
const as = (idempotencyKey = newKey()) => ({
  headers: callerHeaders({ projectId: "prj_sweep", environment: "test", correlationId: "refund-sweep", idempotencyKey }),
});

/** The sandbox, recording each refund call's key; the first call for a refund is lost, as if the process died. */
function losingProvider() {
  const sandbox = createSandboxProvider({ secret: "refund-sweep-secret", delayMs: 0, silenceMs: 0 });
  const calls: Array<{ refundId: string; idempotencyKey: string }> = [];
  const provider: PaymentProvider = {
    ...sandbox,
    async createRefund(request, context) {
      calls.push({ refundId: request.refundId, idempotencyKey: context.idempotencyKey });
      if (calls.filter((call) => call.refundId === request.refundId).length === 1) throw new Error("connection reset");
      return sandbox.createRefund(request, context);
    },
  };
  return { provider, calls };
}

describe("the refund sweep", () => {
  let server: RunningServer;
  let store: Store;
  let payments: Client<typeof PaymentsService>;
  const losing = losingProvider();

  beforeAll(async () => {
    store = createTestStore();
    server = await startPaymentsServer({
      store,
      config: readPaymentsConfig({ PAYMENTS_PROVIDER_LEASE_MS: "1000", PAYMENTS_RECONCILE_INTERVAL_MS: "50" }),
      logger: createLogger("test", "silent"),
      providers: { test: losing.provider },
    });
    payments = createClient(PaymentsService, createGrpcTransport({ baseUrl: server.url }));
  });
  afterAll(() => server.close());

  it("asks the provider again, with the refund's own key, for a refund whose provider call was lost", async () => {
    const { checkout } = await payments.createCheckout(
      { referenceId: "sweep-order", amount: { amountMinor: 100_00n, currency: "PHP" }, successUrl: "https://x.ph/ok", cancelUrl: "https://x.ph/no" },
      as(),
    );
    await payments.simulateCheckoutOutcome({ checkoutId: checkout!.checkoutId, outcome: SimulatedOutcome.SUCCEED }, as());
    const key = newKey();
    const { refund } = await payments.createRefund({ paymentId: checkout!.checkoutId, amount: { amountMinor: 25_00n, currency: "PHP" }, reason: "r" }, as(key));
    expect(refund?.status).toBe(RefundStatus.PENDING);

    const refunds = store.collection<RefundRecord>({ name: "refunds" });
    const acknowledged = await vi.waitFor(
      async () => {
        const stored = await refunds.findOne({ _id: refund!.refundId });
        expect(stored?.providerReference).toBeDefined();
        return stored!;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(acknowledged.status).toBe("pending");
    const calls = losing.calls.filter((call) => call.refundId === refund!.refundId);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((call) => call.idempotencyKey === key)).toBe(true);
    // Once acknowledged it is left alone.
    const settled = calls.length;
    await payments.createRefund({ paymentId: checkout!.checkoutId, amount: { amountMinor: 1_00n, currency: "PHP" }, reason: "r" }, as());
    await vi.waitFor(() => expect(losing.calls.length).toBeGreaterThanOrEqual(settled + 2), { timeout: 10_000, interval: 50 });
    expect(losing.calls.filter((call) => call.refundId === refund!.refundId)).toHaveLength(settled);
  }, 30_000);
});
