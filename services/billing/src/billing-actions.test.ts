import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { BillingService, InvoiceStatus, PlanInterval, SimulatedOutcome, SubscriptionStatus, type Invoice } from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { startBillingServer } from "./server.js";
import { readBillingConfig } from "./config.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const newKey = () => `billing-key-${String(++keys).padStart(8, "0")}`;
const as = (idempotencyKey = newKey()) => ({
  headers: callerHeaders({ projectId: "prj_actions", environment: "test", correlationId: "billing-actions", idempotencyKey }),
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => Code[ConnectError.from(error).code],
  );

/** Each period billed by exactly one invoice, and no two periods starting at one instant. */
function expectOneInvoicePerPeriod(invoices: Invoice[], cyclesBilled: number): void {
  expect(invoices.map((invoice) => invoice.periodNumber)).toEqual(Array.from({ length: cyclesBilled }, (_, i) => i + 1));
  const starts = invoices.map((invoice) => Number(invoice.periodStart!.seconds) * 1000 + Math.floor(invoice.periodStart!.nanos / 1e6));
  for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThan(starts[i - 1]!);
}

/**
 * Over gRPC on HTTP/2, as the gateway calls it in services mode: actions repeated with their
 * Idempotency-Key answer their first outcome, and concurrent advances close each period once.
 */
describe("billing actions over gRPC", () => {
  let server: RunningServer;
  let billing: Client<typeof BillingService>;

  beforeAll(async () => {
    server = await startBillingServer({
      store: createTestStore(),
      config: readBillingConfig({ SANDBOX_SECRET: "billing-actions-secret" }),
      logger: createLogger("test", "silent"),
    });
    billing = createClient(BillingService, createGrpcTransport({ baseUrl: server.url }));
  });
  afterAll(() => server.close());

  async function subscription(cycleCount = 0) {
    const { plan } = await billing.createPlan({ name: "Gold", amount: 49_900n, interval: PlanInterval.MONTHLY, cycleCount }, as());
    const created = await billing.createSubscription({ customerId: "cus_1", referenceId: `member-${newKey()}`, priceId: plan!.planId }, as());
    return created.subscription!;
  }
  const invoicesOf = async (subscriptionId: string) => (await billing.listSubscriptionInvoices({ subscriptionId }, as())).invoices;

  it("advance: a retry with the key answers the first advance and closes no further period", async () => {
    const { subscriptionId } = await subscription();
    const key = newKey();
    const first = await billing.advanceSubscription({ subscriptionId }, as(key));
    expect(first.subscription?.cyclesBilled).toBe(2);
    const again = await billing.advanceSubscription({ subscriptionId }, as(key));
    expect(again).toEqual(first);
    expect(await invoicesOf(subscriptionId)).toHaveLength(2);
    // Another key is another advance.
    expect((await billing.advanceSubscription({ subscriptionId }, as())).subscription?.cyclesBilled).toBe(3);
  });

  it("invoice pay: the same key answers paid again; another key → INVALID_STATE_TRANSITION", async () => {
    const { subscriptionId } = await subscription();
    const [invoice] = await invoicesOf(subscriptionId);
    const key = newKey();
    const paid = await billing.simulateInvoiceOutcome({ invoiceId: invoice!.invoiceId, outcome: SimulatedOutcome.SUCCEED }, as(key));
    expect(paid.invoice?.status).toBe(InvoiceStatus.PAID);
    expect(await billing.simulateInvoiceOutcome({ invoiceId: invoice!.invoiceId, outcome: SimulatedOutcome.SUCCEED }, as(key))).toEqual(paid);
    expect(await codeOf(billing.simulateInvoiceOutcome({ invoiceId: invoice!.invoiceId, outcome: SimulatedOutcome.SUCCEED }, as()))).toBe(
      "FailedPrecondition",
    );
  });

  it("cancel: a retry after the subscription ended answers the scheduled cancellation; another key → INVALID_STATE_TRANSITION", async () => {
    const { subscriptionId } = await subscription();
    const key = newKey();
    const scheduled = await billing.cancelSubscription({ subscriptionId }, as(key));
    expect(scheduled.subscription).toMatchObject({ status: SubscriptionStatus.PENDING, cancelAtPeriodEnd: true });
    expect((await billing.advanceSubscription({ subscriptionId }, as())).subscription?.status).toBe(SubscriptionStatus.CANCELLED);
    expect(await billing.cancelSubscription({ subscriptionId }, as(key))).toEqual(scheduled);
    expect(await codeOf(billing.cancelSubscription({ subscriptionId }, as()))).toBe("FailedPrecondition");
  });

  it("bills each period once under 20 concurrent advances with different keys", async () => {
    const { subscriptionId } = await subscription();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => billing.advanceSubscription({ subscriptionId }, as())));
    const { subscription: after } = await billing.getSubscription({ subscriptionId }, as());
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices).toHaveLength(after!.cyclesBilled);
    expectOneInvoicePerPeriod(invoices, after!.cyclesBilled);
    // Every advance answered with a state the subscription really passed through.
    for (const outcome of outcomes) expect(outcome.subscription!.cyclesBilled).toBeLessThanOrEqual(after!.cyclesBilled);
  });

  it("ends a subscription at its last cycle once, however many advances race past it", async () => {
    const { subscriptionId } = await subscription(2);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        billing.advanceSubscription({ subscriptionId }, as()).catch((error: unknown) => {
          // Those that find it ended are refused as an illegal move.
          expect(ConnectError.from(error).code).toBe(Code.FailedPrecondition);
        }),
      ),
    );
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.length).toBeLessThanOrEqual(2);
    expectOneInvoicePerPeriod(invoices, invoices.length);
  });
});
