import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResponseValidator } from "@bayad/gateway";
import { expectError, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";
import { rawRequest } from "../test-support/raw-request.js";
import { changedByRefusedRequests, snapshotStores } from "../test-support/store-snapshot.js";

const checkResponse = createResponseValidator();
const checkout = {
  referenceId: "order-1",
  amount: { amountMinor: 100_00, currency: "PHP" },
  successUrl: "https://shop.example.ph/ok",
  cancelUrl: "https://shop.example.ph/cancel",
};

function expectNamed(response: ApiResponse, field: string): void {
  expectError(response, 400, "VALIDATION_FAILED");
  const details = response.body.error.details as string[];
  expect(details.some((detail) => detail.startsWith(`${field}: `)), JSON.stringify(details)).toBe(true);
}

// Strings are stored exactly as sent or not at all: a lone surrogate would come back as U+FFFD.
describe("strings that are not well-formed Unicode", () => {
  let api: TestPlatform;
  let otpToken: string;

  beforeAll(async () => {
    api = await startTestPlatform();
    otpToken = await api.serviceToken(api.platform.projectId, ["otp:generate"]);
  });
  afterAll(() => api.close());

  const snapshot = () => snapshotStores(api.platform.stores, changedByRefusedRequests);

  it("refuses a lone surrogate in any string of a JSON body, naming the field, and writes nothing", async () => {
    const before = await snapshot();
    const cases: Array<[string, string, unknown, string, Record<string, unknown>?]> = [
      ["POST", "/api/v1/payments/checkouts", { ...checkout, referenceId: "order-\ud800" }, "referenceId"],
      ["POST", "/api/v1/payments/checkouts", { ...checkout, metadata: { note: "\udc00" } }, "metadata.note"],
      ["POST", "/api/v1/payments/checkouts", { ...checkout, metadata: { ["key\ud800"]: "value" } }, "metadata"],
      ["POST", "/api/v1/payments/customers", { customerReference: "c-1", email: "maria@example.ph", name: "Maria \udbff" }, "name"],
      ["POST", "/api/v1/payments/payment-links", { referenceId: "l-1", amount: { amountMinor: 100, currency: "PHP" }, description: "\ud800\ud800" }, "description"],
      ["POST", "/api/v1/payments/plans", { name: "\udfffGold", amount: 2000, interval: "monthly" }, "name"],
      // A surrogate in a field the schema refuses anyway is still named for what it is.
      ["POST", "/api/v1/payments/checkouts", { ...checkout, unknown: "\ud800" }, "unknown"],
      ["POST", "/admin/v1/projects", { name: "Kape \ud800" }, "name", { credential: api.platform.adminApiKey, idempotencyKey: null }],
      ["POST", "/api/v1/shared/otp/generate", { channel: "sms", recipient: "+63917\ud8001234567" }, "recipient", { credential: otpToken }],
    ];
    for (const [method, path, body, field, options] of cases) {
      expectNamed(await api.request(method, path, { body, ...options }), field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses the metadata key __proto__, which would be dropped rather than stored, and writes nothing", async () => {
    const before = await snapshot();
    // As text: JSON.stringify of an object literal with __proto__ would leave the key out.
    const link = '{"referenceId":"l-2","amount":{"amountMinor":100,"currency":"PHP"},"description":"Deposit","metadata":{"__proto__":"x","ok":"y"}}';
    const checkoutText = JSON.stringify({ ...checkout, metadata: { ok: "y" } }).replace('"ok"', '"__proto__":"x","ok"');
    for (const [path, body] of [["/api/v1/payments/payment-links", link], ["/api/v1/payments/checkouts", checkoutText]] as const) {
      const response = await api.request("POST", path, { rawBody: body, headers: { "Content-Type": "application/json" } });
      expectNamed(response, "metadata");
      expect(response.body.error.details).toContain('metadata: the property name "__proto__" is not allowed');
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a query parameter whose percent-encoding is not UTF-8, naming it", async () => {
    for (const [path, field, credential] of [
      ["/api/v1/payments/records?cursor=%ED%A0%80", "cursor"],
      ["/api/v1/payments/records?status=%ff", "status"],
      ["/api/v1/payments/records?status=%zz", "status"],
      ["/api/v1/payments/records?%ff=1", "query"],
      ["/admin/v1/otp/messages?recipient=%2B63917%ED%B0%80", "recipient", api.platform.adminApiKey],
    ] as const) {
      const response = await rawRequest(api.platform.gatewayUrl, "GET", path, { Authorization: `Bearer ${credential ?? api.platform.testApiKey}` });
      expectNamed(response, field);
      expect(checkResponse("GET", path, response.status, response.body).problems).toEqual([]);
    }
  });

  it("refuses a path parameter whose percent-encoding is not UTF-8, naming it", async () => {
    for (const segment of ["%ED%A0%80", "%ff", "a%C3"]) {
      const path = `/api/v1/payments/checkouts/by-reference/${segment}`;
      expectNamed(await rawRequest(api.platform.gatewayUrl, "GET", path, { Authorization: `Bearer ${api.platform.testApiKey}` }), "referenceId");
    }
  });

  it("keeps well-formed text exactly: astral characters, and U+FFFD when it was sent", async () => {
    const name = `Maria 💳 ${"\ufffd"} Parañaque`;
    const created = await api.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("c"), email: "maria@example.ph", name },
    });
    expect(created.status).toBe(201);
    const read = await api.request("GET", `/api/v1/payments/customers/${created.body.data.customerId}`);
    expect(read.body.data.name).toBe(name);
    const query = await api.request("GET", `/api/v1/payments/records?status=${encodeURIComponent("💳")}`);
    expect(query.status).toBe(200);
  });
});
