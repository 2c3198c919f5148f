import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, newIdempotencyKey, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

/**
 * The gateway and the services forget a key after the same window: a request that reuses a key
 * once it has passed is a new request at both layers, not a replay of what the key did before.
 * The windows are shortened here (both layers read PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS and
 * OTP_IDEMPOTENCY_WINDOW_SECONDS).
 */
describe("idempotency windows", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform({ PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS: "1", OTP_IDEMPOTENCY_WINDOW_SECONDS: "1" });
  });
  afterAll(() => api.close());

  /**
   * Sends `send` until the gateway no longer replays it, and answers that first response. The
   * services' windows run from when the gateway recorded the key, and a claim from an earlier use
   * of a key is no answer to a later one, so that first response must be a new request's.
   */
  const onceForgotten = (send: () => Promise<ApiResponse>) =>
    eventually(async () => {
      const response = await send();
      return response.headers.get("Idempotent-Replayed") === "true" ? undefined : response;
    }, 15_000);

  it("makes a new refund for a key reused after its window, not the old refund again", async () => {
    const checkout = await api.request("POST", "/api/v1/payments/checkouts", {
      body: {
        referenceId: unique("window-order"),
        amount: { amountMinor: 100_00, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      },
    });
    const paymentId = checkout.body.data.checkoutId as string;
    await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${paymentId}/pay`);

    const key = newIdempotencyKey();
    const refund = () =>
      api.request("POST", "/api/v1/payments/refunds", {
        idempotencyKey: key,
        body: { paymentId, amount: { amountMinor: 30_00, currency: "PHP" }, reason: "customer request" },
      });
    const first = await refund();
    expect(first.status).toBe(201);
    const replay = await refund();
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.body.data.refundId).toBe(first.body.data.refundId);

    const later = await onceForgotten(refund);
    expect(later.status).toBe(201);
    expect(later.body.data.refundId).not.toBe(first.body.data.refundId);
    expect(later.body.data).toMatchObject({ paymentId, status: "pending", amount: { amountMinor: 30_00, currency: "PHP" } });
    // Both refunds exist and took from the payment: 40 of 100 pesos are left to refund.
    expect((await api.request("GET", `/api/v1/payments/refunds/${first.body.data.refundId}`)).status).toBe(200);
    const over = await api.request("POST", "/api/v1/payments/refunds", {
      body: { paymentId, amount: { amountMinor: 40_01, currency: "PHP" }, reason: "customer request" },
    });
    expect(over.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
  });

  it("makes a new plan for a key reused after its window (billing keeps the same window)", async () => {
    const key = newIdempotencyKey();
    const createPlan = () =>
      api.request("POST", "/api/v1/payments/plans", {
        idempotencyKey: key,
        body: { name: "Window", amount: 100_00, currency: "PHP", interval: "monthly" },
      });
    const first = await createPlan();
    expect(first.status).toBe(201);
    const later = await onceForgotten(createPlan);
    expect(later.status).toBe(201);
    expect(later.body.data.planId).not.toBe(first.body.data.planId);
  });

  it("generates a new code for an OTP key reused after its window (the OTP service keeps the same window)", async () => {
    const token = await api.serviceToken(api.platform.projectId, ["otp:generate"]);
    const key = newIdempotencyKey();
    const recipient = `+63917${String(Date.now()).slice(-7)}`;
    const generate = () =>
      api.request("POST", "/api/v1/shared/otp/generate", { credential: token, idempotencyKey: key, body: { recipient, channel: "sms" } });
    const first = await generate();
    expect(first.status).toBe(201);
    const later = await onceForgotten(generate);
    expect(later.status).toBe(201);
    expect(later.body.data.otpId).not.toBe(first.body.data.otpId);
  });
});
