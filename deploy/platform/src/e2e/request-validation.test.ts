import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@bayad/kit";
import { createEmbeddedStore } from "@bayad/store";
import { readGatewayConfig, startGateway } from "@bayad/gateway";
import { startTestPlatform, type TestPlatform } from "../test-support/harness.js";

const checkouts = "/api/v1/payments/checkouts";

function checkout(overrides: Record<string, unknown> = {}) {
  return {
    referenceId: "order-1001",
    amount: { amountMinor: 150_00, currency: "PHP" },
    successUrl: "https://shop.example.ph/success",
    cancelUrl: "https://shop.example.ph/cancel",
    ...overrides,
  };
}

describe("request validation from the OpenAPI document", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api.close());

  async function expectRejected(method: string, path: string, body: unknown, field: string) {
    const response = await api.request(method, path, { body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("VALIDATION_FAILED");
    expect(response.body.error.details.some((d: string) => d.startsWith(`${field}:`)), JSON.stringify(response.body.error.details)).toBe(true);
  }

  describe("Money", () => {
    it("rejects an amount below 1 centavo, naming amount.amountMinor", () =>
      expectRejected("POST", checkouts, checkout({ amount: { amountMinor: 0, currency: "PHP" } }), "amount.amountMinor"));

    it("rejects an amount above the safe-integer range", () =>
      expectRejected("POST", checkouts, checkout({ amount: { amountMinor: 9007199254740992, currency: "PHP" } }), "amount.amountMinor"));

    it("rejects a fractional amount", () =>
      expectRejected("POST", checkouts, checkout({ amount: { amountMinor: 10.5, currency: "PHP" } }), "amount.amountMinor"));

    it("rejects an amount given as text", () =>
      expectRejected("POST", checkouts, checkout({ amount: { amountMinor: "1500", currency: "PHP" } }), "amount.amountMinor"));

    it("rejects a currency other than PHP", () =>
      expectRejected("POST", checkouts, checkout({ amount: { amountMinor: 1500, currency: "USD" } }), "amount.currency"));

    it("rejects a Money without its currency", () =>
      expectRejected("POST", checkouts, checkout({ amount: { amountMinor: 1500 } }), "amount.currency"));
  });

  describe("strings, URLs and metadata", () => {
    it("rejects a referenceId of 256 characters", () =>
      expectRejected("POST", checkouts, checkout({ referenceId: "r".repeat(256) }), "referenceId"));

    it("rejects a successUrl that is not a URL", () =>
      expectRejected("POST", checkouts, checkout({ successUrl: "not a url" }), "successUrl"));

    it("rejects metadata with a non-string value", () =>
      expectRejected("POST", checkouts, checkout({ metadata: { orderNumber: 42 } }), "metadata.orderNumber"));

    it("rejects a payment link description that is empty", () =>
      expectRejected("POST", "/api/v1/payments/payment-links", {
        referenceId: "link-1",
        amount: { amountMinor: 100, currency: "PHP" },
        description: "",
      }, "description"));
  });

  describe("bounds of plans and QR Ph intents", () => {
    it("rejects a plan amount below 2000 centavos", () =>
      expectRejected("POST", "/api/v1/payments/plans", { name: "Basic", amount: 1999, interval: "monthly" }, "amount"));

    it("rejects a plan intervalCount of 11", () =>
      expectRejected("POST", "/api/v1/payments/plans", { name: "Basic", amount: 2000, interval: "monthly", intervalCount: 11 }, "intervalCount"));

    it("rejects a plan cycleCount of 1", () =>
      expectRejected("POST", "/api/v1/payments/plans", { name: "Basic", amount: 2000, interval: "monthly", cycleCount: 1 }, "cycleCount"));

    it("rejects an interval that is not weekly, monthly or yearly", () =>
      expectRejected("POST", "/api/v1/payments/plans", { name: "Basic", amount: 2000, interval: "daily" }, "interval"));

    for (const expirySeconds of [59, 9001]) {
      it(`rejects a QR Ph expirySeconds of ${expirySeconds}`, () =>
        expectRejected("POST", "/api/v1/payments/intents/qrph", {
          referenceId: "qr-1",
          amount: { amountMinor: 100, currency: "PHP" },
          expirySeconds,
        }, "expirySeconds"));
    }
  });

  describe("query parameters and path ids", () => {
    for (const query of ["limit=0", "limit=201", "limit=ten", "createdAfter=yesterday", "unknownFilter=1"]) {
      const field = query.split("=")[0]!;
      it(`rejects records?${query}, naming ${field}`, async () => {
        const response = await api.request("GET", `/api/v1/payments/records?${query}`);
        expect(response.status).toBe(400);
        expect(response.body.error.details.some((d: string) => d.startsWith(`${field}:`))).toBe(true);
      });
    }

    it("rejects a malformed checkout id in the path", async () => {
      const response = await api.request("GET", "/api/v1/payments/checkouts/pi_not_a_checkout");
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual([expect.stringMatching(/^checkoutId:/)]);
    });

    it("rejects a body on an operation that takes none", async () => {
      const response = await api.request("POST", "/api/v1/payments/checkouts/chk_abc/cancel", { body: { reason: "x" } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
    });
  });

  it("lets a valid request through validation", async () => {
    const response = await api.request("POST", "/api/v1/payments/plans", {
      body: { name: "Gold", amount: 2000, interval: "monthly" },
    });
    expect(response.status).toBe(201);
  });

  it("answers 501 NOT_IMPLEMENTED for a valid request whose service is not deployed", async () => {
    // A gateway routed to the payments service only: billing's operations have no handler.
    const gateway = await startGateway({
      config: readGatewayConfig({ PORT: "0", ADMIN_API_KEY: "adm_only_payments_0123456789" }),
      store: createEmbeddedStore(),
      services: { payments: api.platform.services.payments.url },
      logger: createLogger("test", "silent"),
    });
    try {
      const project = await gateway.admin.projects.create("Partial");
      const key = await gateway.admin.apiKeys.issue(project.projectId, "test");
      const response = await fetch(`${gateway.url}/api/v1/payments/plans`, { headers: { Authorization: `Bearer ${key.apiKey}` } });
      expect(response.status).toBe(501);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("NOT_IMPLEMENTED");
      // Nor does capabilities list what would answer 501.
      const capabilities = await fetch(`${gateway.url}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${key.apiKey}` } });
      expect(((await capabilities.json()) as { data: { resources: string[] } }).data.resources).toEqual(["customers", "checkouts", "intents", "refunds"]);
    } finally {
      await gateway.close();
    }
  });
});
