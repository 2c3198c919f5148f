import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, newIdempotencyKey, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

/**
 * An action whose response the gateway lost (it "crashes" after the service acted and before it
 * recorded the outcome) is re-driven by the reconciler with the same Idempotency-Key. The service
 * answers that re-run as it answered the first run: the retry gets the action's outcome, not
 * INVALID_STATE_TRANSITION, and a period advance closes one period, not two.
 */
describe("actions re-driven after a lost response", () => {
  let api: TestPlatform;
  let crashNext: string | undefined;

  beforeAll(async () => {
    api = await startTestPlatform(
      { IDEMPOTENCY_LEASE_MS: "300", PLATFORM_RPC: "http2" },
      {
        afterOutcome: (operationId) => {
          if (crashNext !== operationId) return;
          crashNext = undefined;
          throw new Error("injected crash: the gateway died before recording the response");
        },
      },
    );
  });
  afterAll(() => api?.close());

  const unresolved = (response: ApiResponse) =>
    response.status === 409 && ["IDEMPOTENCY_KEY_IN_PROGRESS", "PAYMENT_OUTCOME_UNKNOWN"].includes(response.body.error.code);

  /** Sends the action once with a crash injected, then retries with its key until it is settled. */
  async function crashThenSettle(operationId: string, path: string, body?: unknown) {
    const key = newIdempotencyKey();
    crashNext = operationId;
    const crashed = await api.request("POST", path, { idempotencyKey: key, ...(body ? { body } : {}) });
    expect(crashed.status).toBe(500);
    return eventually(async () => {
      const retry = await api.request("POST", path, { idempotencyKey: key, ...(body ? { body } : {}) });
      return unresolved(retry) ? undefined : retry;
    });
  }

  it("cancelCheckout: the re-drive answers the cancelled checkout", async () => {
    const created = await api.request("POST", "/api/v1/payments/checkouts", {
      body: {
        referenceId: unique("redrive"),
        amount: { amountMinor: 100_00, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      },
    });
    const checkoutId = created.body.data.checkoutId as string;
    const settled = await crashThenSettle("cancelCheckout", `/api/v1/payments/checkouts/${checkoutId}/cancel`);
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ checkoutId, status: "cancelled" });
    // A cancel with another key is another request: that one is refused.
    const again = await api.request("POST", `/api/v1/payments/checkouts/${checkoutId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("INVALID_STATE_TRANSITION");
  });

  it("advance: the re-drive answers the first advance and bills one period, not two", async () => {
    const plan = await api.request("POST", "/api/v1/payments/plans", { body: { name: "Gold", amount: 499_00, interval: "monthly" } });
    const customer = await api.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("member"), email: "member@example.ph" },
    });
    const subscription = await api.request("POST", "/api/v1/payments/subscriptions", {
      body: { customerId: customer.body.data.customerId, referenceId: unique("membership"), priceId: plan.body.data.planId },
    });
    const subscriptionId = subscription.body.data.subscriptionId as string;
    const settled = await crashThenSettle("advanceSubscriptionTestHelper", `/api/v1/payments/test-helpers/subscriptions/${subscriptionId}/advance`);
    expect(settled.status).toBe(200);
    const invoices = (await api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data as unknown[];
    expect(invoices).toHaveLength(2);
    const current = (await api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}`)).body.data;
    expect(settled.body.data.currentPeriodStart).toBe(current.currentPeriodStart);
  });

  it("confirm: the re-drive answers the processing intent", async () => {
    const intent = await api.request("POST", "/api/v1/payments/intents", {
      body: { referenceId: unique("redrive-intent"), amount: { amountMinor: 50_00, currency: "PHP" } },
    });
    const id = intent.body.data.paymentIntentId as string;
    const settled = await crashThenSettle("confirmPaymentIntent", `/api/v1/payments/intents/${id}/confirm`);
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ paymentIntentId: id, status: "processing" });
  });
});
