import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  BillingService,
  Health,
  HealthCheckResponse_ServingStatus,
  InvoiceStatus,
  PlanInterval,
  SimulatedOutcome,
  SubscriptionStatus,
} from "@bayad/proto";
import { callerHeaders, createLogger, type RunningServer } from "@bayad/kit";
import { startBillingServer } from "./server.js";
import { readBillingConfig } from "./config.js";
import { createTestStore } from "@bayad/store/testing";

let keys = 0;
const headers = (projectId = "prj_grpc", mutating = false, environment: "test" | "live" = "test") =>
  callerHeaders({
    projectId,
    environment,
    correlationId: "grpc-test",
    idempotencyKey: mutating ? `grpc-key-${String(++keys).padStart(10, "0")}` : undefined,
  });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => ConnectError.from(error).code,
  );

describe("billing service over HTTP/2", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startBillingServer({
      store: createTestStore(),
      config: readBillingConfig({ SANDBOX_SECRET: "grpc-sandbox-secret" }),
      logger: createLogger("test", "silent"),
    });
  });

  afterAll(async () => {
    await server.close();
  });

  describe.each([
    ["gRPC", () => createGrpcTransport({ baseUrl: server.url })],
    ["Connect", () => createConnectTransport({ baseUrl: server.url, httpVersion: "2" })],
  ] as [string, () => Transport][])("with the %s protocol", (protocol, transport) => {
    let billing: Client<typeof BillingService>;
    beforeAll(() => {
      billing = createClient(BillingService, transport());
    });

    it("answers health checks with SERVING", async () => {
      const health = createClient(Health, transport());
      expect((await health.check({ service: BillingService.typeName })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    });

    it("creates a plan, subscribes to it, and pays the first invoice", async () => {
      const { plan } = await billing.createPlan(
        { name: "Gold", amount: 49_900n, interval: PlanInterval.MONTHLY, cycleCount: 12, metadata: { tier: "gold" } },
        { headers: headers("prj_grpc", true) },
      );
      expect(plan).toMatchObject({ currency: "PHP", intervalCount: 1, cycleCount: 12, amount: 49_900n, metadata: { tier: "gold" } });
      expect((await billing.listPlans({}, { headers: headers() })).plans.map((p) => p.planId)).toContain(plan!.planId);
      expect((await billing.getPlan({ planId: plan!.planId }, { headers: headers() })).plan?.name).toBe("Gold");

      const { subscription } = await billing.createSubscription(
        { customerId: "cus_grpc", referenceId: `member-${protocol}`, priceId: plan!.planId },
        { headers: headers("prj_grpc", true) },
      );
      expect(subscription).toMatchObject({ status: SubscriptionStatus.PENDING, cyclesBilled: 1, planId: plan!.planId });

      const { invoices } = await billing.listSubscriptionInvoices({ subscriptionId: subscription!.subscriptionId }, { headers: headers() });
      expect(invoices).toHaveLength(1);
      expect(invoices[0]).toMatchObject({ status: InvoiceStatus.OPEN, periodNumber: 1, amount: { amountMinor: 49_900n, currency: "PHP" } });
      const invoiceId = invoices[0]!.invoiceId;

      const pageToken = new URL(invoices[0]!.hostedInvoiceUrl, "http://x").searchParams.get("token")!;
      const page = await billing.getHostedInvoice({ invoiceId, pageToken });
      expect(page).toMatchObject({ environment: "test", planName: "Gold" });
      const paid = await billing.submitHostedInvoice({ invoiceId, pageToken, outcome: SimulatedOutcome.SUCCEED });
      expect(paid.invoice?.status).toBe(InvoiceStatus.PAID);
      const { subscription: active } = await billing.getSubscription({ subscriptionId: subscription!.subscriptionId }, { headers: headers() });
      expect(active?.status).toBe(SubscriptionStatus.ACTIVE);

      const advanced = await billing.advanceSubscription({ subscriptionId: subscription!.subscriptionId }, { headers: headers("prj_grpc", true) });
      expect(advanced.subscription?.cyclesBilled).toBe(2);
      const cancelled = await billing.cancelSubscription({ subscriptionId: subscription!.subscriptionId }, { headers: headers("prj_grpc", true) });
      expect(cancelled.subscription).toMatchObject({ status: SubscriptionStatus.ACTIVE, cancelAtPeriodEnd: true });
      const renewal = (await billing.listSubscriptionInvoices({ subscriptionId: subscription!.subscriptionId }, { headers: headers() })).invoices[1]!;
      const failed = await billing.simulateInvoiceOutcome({ invoiceId: renewal.invoiceId, outcome: SimulatedOutcome.FAIL }, { headers: headers("prj_grpc", true) });
      expect(failed.invoice?.status).toBe(InvoiceStatus.PAST_DUE);
      expect((await billing.getInvoice({ invoiceId }, { headers: headers() })).invoice?.status).toBe(InvoiceStatus.PAID);
    });

    it("maps refusals to their gRPC codes", async () => {
      const { plan } = await billing.createPlan(
        { name: "Silver", amount: 20_000n, interval: PlanInterval.WEEKLY },
        { headers: headers("prj_grpc", true) },
      );
      expect(await codeOf(billing.getPlan({ planId: plan!.planId }, { headers: headers("prj_other") }))).toBe(Code.NotFound);
      expect(
        await codeOf(billing.createSubscription({ customerId: "cus_1", referenceId: "r", priceId: "plan_none" }, { headers: headers("prj_grpc", true) })),
      ).toBe(Code.NotFound);
      expect(
        await codeOf(billing.createSubscription({ customerId: "cus_1", referenceId: "r", priceId: plan!.planId }, { headers: headers("prj_grpc", true, "live") })),
      ).toBe(Code.FailedPrecondition);
      expect(await codeOf(billing.createPlan({ name: "No key", amount: 20_000n, interval: PlanInterval.WEEKLY }, { headers: headers() }))).toBe(
        Code.InvalidArgument,
      );
      expect(await codeOf(billing.listPlans({}))).toBe(Code.Unauthenticated);
      expect(
        await codeOf(billing.simulateInvoiceOutcome({ invoiceId: "inv_none", outcome: SimulatedOutcome.UNSPECIFIED }, { headers: headers("prj_grpc", true) })),
      ).toBe(Code.InvalidArgument);
      expect(await codeOf(billing.getHostedInvoice({ invoiceId: "inv_none", pageToken: "t" }))).toBe(Code.NotFound);
    });
  });
});
