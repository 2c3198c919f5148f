import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * Concurrent period closes through the gateway, which reaches billing over gRPC on HTTP/2 here
 * (PLATFORM_RPC=http2), as in services mode: each period is billed by exactly one invoice.
 */
describe("billing under concurrent advances", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform({ PLATFORM_RPC: "http2" });
  });
  afterAll(() => api?.close());

  async function subscribe(cycleCount?: number) {
    const plan = await api.request("POST", "/api/v1/payments/plans", {
      body: { name: "Gold", amount: 499_00, interval: "monthly", ...(cycleCount ? { cycleCount } : {}) },
    });
    const customer = await api.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("member"), email: "member@example.ph" },
    });
    const created = await api.request("POST", "/api/v1/payments/subscriptions", {
      body: { customerId: customer.body.data.customerId, referenceId: unique("membership"), priceId: plan.body.data.planId },
    });
    expect(created.status).toBe(201);
    return created.body.data.subscriptionId as string;
  }

  /** Invoices (oldest period first) start strictly later one after another: no span is billed twice. */
  async function expectOneInvoicePerPeriod(subscriptionId: string) {
    const subscription = (await api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}`)).body.data;
    const invoices = (await api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data as Array<{
      periodStart: string;
    }>;
    const starts = invoices.map((invoice) => Date.parse(invoice.periodStart));
    for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThan(starts[i - 1]!);
    if (subscription.status !== "cancelled") expect(invoices.at(-1)!.periodStart).toBe(subscription.currentPeriodStart);
    return invoices.length;
  }

  it("bills each period once under 12 concurrent advances with different keys", async () => {
    const subscriptionId = await subscribe();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.request("POST", `/api/v1/payments/test-helpers/subscriptions/${subscriptionId}/advance`)),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await expectOneInvoicePerPeriod(subscriptionId)).toBeGreaterThanOrEqual(2);
  });

  it("ends a subscription at its last cycle once, however many advances race past it", async () => {
    const subscriptionId = await subscribe(3);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => api.request("POST", `/api/v1/payments/test-helpers/subscriptions/${subscriptionId}/advance`)),
    );
    for (const answer of answers) {
      if (answer.status !== 200) expect(answer.body.error.code).toBe("INVALID_STATE_TRANSITION");
    }
    expect(await expectOneInvoicePerPeriod(subscriptionId)).toBeLessThanOrEqual(3);
  });
});
