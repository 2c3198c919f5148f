import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResponseValidator, listOperations, loadOpenApiDocument, type OperationSpec } from "@bayad/gateway";
import { newIdempotencyKey, startTestPlatform, type TestPlatform } from "../test-support/harness.js";
import { rawRequest } from "../test-support/raw-request.js";
import { changedByRefusedRequests, snapshotStores } from "../test-support/store-snapshot.js";

const checkouts = "/api/v1/payments/checkouts";
const checkResponse = createResponseValidator();

/** What a URL path segment carries both ways once percent-encoded (PathSafeString in the OpenAPI document). */
const acceptedReferences = [
  "...",
  ".a",
  "a.",
  "a b",
  " padded ",
  "100%",
  "%zz",
  "%2F",
  "%2E%2E",
  "a?b=c&d",
  "#1",
  "+plus+",
  "Parañaque",
  "注文 ✓",
  "card 💳",
  "~!*'()",
  '"<>{}|^`',
  "[]@:;,=$&",
  "r".repeat(255),
];

/** Values no lookup could find: a separator, a dot segment, a control character. */
const refusedReferences = [".", "..", "a/b", "/", "a\\b", "tab\there", "nul\u0000", "del\u007f", "c1\u0085", "line\nbreak"];

/** Each create operation's reference field, with a body that is valid but for it. */
const referenceFields: Array<{ path: string; field: string; body: (reference: string) => Record<string, unknown> }> = [
  {
    path: checkouts,
    field: "referenceId",
    body: (referenceId) => ({
      referenceId,
      amount: { amountMinor: 100_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/ok",
      cancelUrl: "https://shop.example.ph/cancel",
    }),
  },
  { path: "/api/v1/payments/intents", field: "referenceId", body: (referenceId) => ({ referenceId, amount: { amountMinor: 100_00, currency: "PHP" } }) },
  { path: "/api/v1/payments/intents/qrph", field: "referenceId", body: (referenceId) => ({ referenceId, amount: { amountMinor: 100_00, currency: "PHP" } }) },
  { path: "/api/v1/payments/customers", field: "customerReference", body: (customerReference) => ({ customerReference, email: "maria@example.ph" }) },
  { path: "/api/v1/payments/subscriptions", field: "referenceId", body: (referenceId) => ({ customerId: "cus_abc", referenceId, priceId: "plan_abc" }) },
  {
    path: "/api/v1/payments/payment-links",
    field: "referenceId",
    body: (referenceId) => ({ referenceId, amount: { amountMinor: 100_00, currency: "PHP" }, description: "Deposit" }),
  },
];

/**
 * Raw path segments a parameter cannot take: dot segments (plain and encoded), an encoded
 * separator, malformed escapes, escapes that are not UTF-8 (an encoded lone surrogate among
 * them), encoded control characters.
 */
const refusedSegments = [".", "..", "%2E", "%2e%2E", "a%2Fb", "a%5Cb", "%zz", "a%", "%ff", "%C3", "%ED%A0%80", "%00", "a%09b", "%7F"];

describe("references that round-trip", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api.close());

  it("reads back, through encodeURIComponent, every reference createCheckout accepts", async () => {
    for (const referenceId of acceptedReferences) {
      const created = await api.request("POST", checkouts, { body: referenceFields[0]!.body(referenceId) });
      expect(created.status, JSON.stringify(referenceId)).toBe(201);
      expect(created.body.data.referenceId).toBe(referenceId);
      const read = await api.request("GET", `${checkouts}/by-reference/${encodeURIComponent(referenceId)}`);
      expect(read.status, JSON.stringify(referenceId)).toBe(200);
      expect(read.body.data.checkoutId).toBe(created.body.data.checkoutId);
      expect(read.body.data.referenceId).toBe(referenceId);
    }
  });

  it("answers 404, not 400, for a well-formed reference or id that does not exist", async () => {
    for (const path of [
      `${checkouts}/by-reference/${encodeURIComponent("no such order 注文")}`,
      `${checkouts}/by-reference/${encodeURIComponent("%zz missing")}`,
      "/api/v1/payments/plans/plan_missing",
      "/api/v1/payments/payment-links/link_missing",
    ]) {
      const response = await api.request("GET", path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe("RESOURCE_NOT_FOUND");
    }
  });
});

// A platform of its own, on which no request succeeds, so that its stores hold still.
describe("references and path parameters refused", () => {
  let api: TestPlatform;
  let otpToken: string;

  beforeAll(async () => {
    api = await startTestPlatform();
    otpToken = await api.serviceToken(api.platform.projectId, ["otp:read"]);
  });
  afterAll(() => api.close());

  /** The platform's stores, whole, less what changes while requests are refused. */
  const snapshot = () => snapshotStores(api.platform.stores, changedByRefusedRequests);

  it("refuses at create, naming the field, a reference that no lookup could read, and writes nothing", async () => {
    const before = await snapshot();
    for (const { path, field, body } of referenceFields) {
      for (const reference of refusedReferences) {
        const response = await api.request("POST", path, { body: body(reference) });
        const label = `${path} ${field}=${JSON.stringify(reference)}`;
        expect(response.status, label).toBe(400);
        expect(response.body.error.code, label).toBe("VALIDATION_FAILED");
        expect(response.body.error.details, label).toEqual([expect.stringMatching(new RegExp(`^${field}: `))]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  /** A request path of `spec` with `segment` as `name` and a well-formed value for every other parameter. */
  function pathWith(spec: OperationSpec, name: string, segment: string): string {
    return spec.path.replace(/\{([^}]+)\}/g, (_, other: string) => {
      if (other === name) return segment;
      if (other === "projectId") return api.platform.projectId;
      return { checkoutId: "chk_x", paymentIntentId: "pi_x", customerId: "cus_x", refundId: "ref_x", subscriptionId: "sub_x", invoiceId: "inv_x" }[other] ?? "x";
    });
  }

  function credentialFor(spec: OperationSpec): string {
    if (spec.auth === "admin") return api.platform.adminApiKey;
    return spec.credential === "service_token" ? otpToken : api.platform.testApiKey;
  }

  const withParameters = listOperations(loadOpenApiDocument()).filter((spec) => spec.path.includes("{"));

  it("refuses, naming it, a path parameter that is not a path-safe value or not valid percent-encoded UTF-8, and writes nothing", async () => {
    expect(withParameters.length).toBeGreaterThan(20);
    const before = await snapshot();
    for (const spec of withParameters) {
      for (const [, name] of spec.path.matchAll(/\{([^}]+)\}/g)) {
        for (const segment of refusedSegments) {
          const path = pathWith(spec, name!, segment);
          const headers: Record<string, string> = { Authorization: `Bearer ${credentialFor(spec)}` };
          if (spec.idempotency) headers["Idempotency-Key"] = newIdempotencyKey();
          const response = await rawRequest(api.platform.gatewayUrl, spec.method, path, headers);
          const label = `${spec.operationId}: ${spec.method} ${path}`;
          expect(response.status, `${label} → ${response.text}`).toBe(400);
          expect(response.body.error.code, label).toBe("VALIDATION_FAILED");
          expect(response.body.error.details.some((detail: string) => detail.startsWith(`${name}: `)), `${label} → ${response.text}`).toBe(true);
          expect(response.body.meta.correlationId).toBe(response.headers.get("x-correlation-id"));
          expect(checkResponse(spec.method, path, response.status, response.body).problems, label).toEqual([]);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});
