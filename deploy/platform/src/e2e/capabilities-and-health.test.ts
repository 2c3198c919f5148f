import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/**
 * getPaymentCapabilities, and the liveness and readiness probes. Readiness is checked on a
 * platform of its own whose payments store is closed part-way, so the break cannot leak into
 * other tests.
 */

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

describe("getPaymentCapabilities", () => {
  it("reports PHP as the currency, with lists of payment methods and resources", async () => {
    const response = await api.request("GET", "/api/v1/payments/capabilities");

    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data.currency).toBe("PHP");
    expect(Array.isArray(response.body.data.paymentMethods)).toBe(true);
    expect(Array.isArray(response.body.data.resources)).toBe(true);
    for (const value of [...response.body.data.paymentMethods, ...response.body.data.resources]) {
      expect(value).toBeTypeOf("string");
    }
  });

  it("lists every resource the platform serves, by path name", async () => {
    const response = await api.request("GET", "/api/v1/payments/capabilities");

    expect(response.body.data.resources).toEqual([
      "customers", "checkouts", "intents", "refunds", "subscriptions", "plans", "invoices", "payment-links", "records",
      "webhook-endpoints", "events",
    ]);
  });

  it("lists the event types the webhooks service delivers", async () => {
    const response = await api.request("GET", "/api/v1/payments/capabilities");

    expect(response.body.data.webhookEventTypes).toEqual(expect.arrayContaining([
      "checkout.paid", "checkout.cancelled", "checkout.expired",
      "payment_intent.requires_action", "payment_intent.processing",
      "payment_intent.succeeded", "payment_intent.failed", "payment_intent.cancelled", "payment_intent.expired",
      "refund.succeeded", "refund.failed", "payment_link.paid",
      "subscription.created", "subscription.trial_will_end", "subscription.cancelled", "invoice.paid", "invoice.payment_failed",
    ]));
  });

  it("reports the sandbox's payment methods in test mode and none in live mode until a live provider is configured", async () => {
    const project = await api.newProject();

    const test = await api.request("GET", "/api/v1/payments/capabilities", { credential: project.testKey });
    const live = await api.request("GET", "/api/v1/payments/capabilities", { credential: project.liveKey });

    expect(test.body.data.paymentMethods).toEqual(["card", "qrph"]);
    expect(test.body.data.resources).toEqual(expect.arrayContaining(["customers", "checkouts", "intents"]));
    expect(live.status).toBe(200);
    expect(live.body.data.paymentMethods).toEqual([]);
    expect(test.body.data.paymentIntentMethods).toContainEqual({ type: "online_banking", bankCode: "bdo" });
    expect(live.body.data.paymentIntentMethods).toEqual([]);
    expect(live.body.data.resources).toEqual(test.body.data.resources);
  });

  it("needs a credential", async () => {
    const response = await api.request("GET", "/api/v1/payments/capabilities", { credential: null });

    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("AUTHENTICATION_REQUIRED");
  });

  it("refuses query parameters it does not define, naming them", async () => {
    const response = await api.request("GET", "/api/v1/payments/capabilities?currency=USD");

    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("currency")]));
  });
});

describe("healthz", () => {
  it("answers 200 with status ok and no credential", async () => {
    const response = await api.request("GET", "/healthz", { credential: null });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { status: "ok" } });
  });

  it("ignores a credential, even a wrong one", async () => {
    const response = await api.request("GET", "/healthz", { credential: "not-a-key" });

    expect(response.status).toBe(200);
  });
});

describe("readyz", () => {
  it("answers 200 with every check ok while the store and the services answer", async () => {
    const response = await api.request("GET", "/readyz", { credential: null });

    expect(response.status).toBe(200);
    expect(response.body.data.status).toBe("ready");
    expect(Object.keys(response.body.data.checks).sort()).toEqual(["billing", "links", "otp", "payments", "records", "store", "webhooks"]);
    for (const state of Object.values(response.body.data.checks)) expect(state).toBe("ok");
  });

  describe("on a platform whose payments store has closed", () => {
    let broken: TestPlatform | undefined;

    /** Each test's own platform, ready, whose payments store is then closed. */
    async function platformWithClosedPaymentsStore(): Promise<TestPlatform> {
      broken = await startTestPlatform();
      expect((await broken.request("GET", "/readyz", { credential: null })).status).toBe(200);
      await broken.platform.stores.payments.close();
      return broken;
    }

    afterEach(async () => {
      await broken?.close();
      broken = undefined;
    });

    it("answers 503 SERVICE_UNAVAILABLE naming the payments service, while healthz stays 200", async () => {
      const platform = await platformWithClosedPaymentsStore();

      const response = await eventually(async () => {
        const probe = await platform.request("GET", "/readyz", { credential: null });
        return probe.status === 503 ? probe : undefined;
      });
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe("SERVICE_UNAVAILABLE");
      expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("payments")]));
      expect(response.body.meta.correlationId).toBe(response.headers.get("X-Correlation-Id"));
      expect((await platform.request("GET", "/healthz", { credential: null })).status).toBe(200);
    });

    it("answers reads that need the store with 503 SERVICE_UNAVAILABLE, not a 500", async () => {
      const platform = await platformWithClosedPaymentsStore();
      const read = await platform.request("GET", "/api/v1/payments/customers/cus_unreachable");
      expect(read.status).toBe(503);
      expect(read.body.error.code).toBe("SERVICE_UNAVAILABLE");
    });
  });
});
