import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { parse } from "yaml";
import { errorCatalogue } from "@bayad/kit";
import { testEventType, webhookEventTypes } from "@bayad/public-resources";
import { beforeAll, describe, expect, it } from "vitest";

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const documentPath = fileURLToPath(new URL("../../openapi/openapi.yaml", import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  "x-scopes"?: string[];
  "x-credential"?: string;
  description?: string;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
}

/** Every endpoint of the interface (and our admin and health endpoints), as a literal table. */
const endpoints: ReadonlyArray<readonly [method: string, path: string, operationId: string, tag: string]> = [
  ["post", "/api/v1/payments/checkouts", "createCheckout", "Payments"],
  ["get", "/api/v1/payments/checkouts/{checkoutId}", "getCheckout", "Payments"],
  ["get", "/api/v1/payments/checkouts/by-reference/{referenceId}", "getCheckoutByReference", "Payments"],
  ["post", "/api/v1/payments/checkouts/{checkoutId}/cancel", "cancelCheckout", "Payments"],
  ["post", "/api/v1/payments/intents", "createPaymentIntent", "Payments"],
  ["get", "/api/v1/payments/intents/{paymentIntentId}", "getPaymentIntent", "Payments"],
  ["post", "/api/v1/payments/intents/{paymentIntentId}/confirm", "confirmPaymentIntent", "Payments"],
  ["post", "/api/v1/payments/intents/{paymentIntentId}/cancel", "cancelPaymentIntent", "Payments"],
  ["post", "/api/v1/payments/intents/qrph", "createQrPhPaymentIntent", "Payments"],
  ["post", "/api/v1/payments/customers", "createCustomer", "Payments"],
  ["get", "/api/v1/payments/customers/{customerId}", "getCustomer", "Payments"],
  ["post", "/api/v1/payments/refunds", "createRefund", "Payments"],
  ["get", "/api/v1/payments/refunds/{refundId}", "getRefund", "Payments"],
  ["post", "/api/v1/payments/subscriptions", "createSubscription", "Payments"],
  ["get", "/api/v1/payments/subscriptions/{subscriptionId}", "getSubscription", "Payments"],
  ["post", "/api/v1/payments/subscriptions/{subscriptionId}/cancel", "cancelSubscription", "Payments"],
  ["post", "/api/v1/payments/subscriptions/{subscriptionId}/change-plan", "changeSubscriptionPlan", "Payments"],
  ["post", "/api/v1/payments/subscriptions/{subscriptionId}/change-plan/preview", "previewSubscriptionPlanChange", "Payments"],
  ["get", "/api/v1/payments/subscriptions/{subscriptionId}/invoices", "listSubscriptionInvoices", "Payments"],
  ["get", "/api/v1/payments/invoices/{invoiceId}", "getInvoice", "Payments"],
  ["get", "/api/v1/payments/records", "listPaymentRecords", "Payments"],
  ["get", "/api/v1/payments/records/export", "exportPaymentRecords", "Payments"],
  ["get", "/api/v1/payments/reports/summary", "getPaymentsSummary", "Payments"],
  ["get", "/api/v1/payments/capabilities", "getPaymentCapabilities", "Payments"],
  ["get", "/api/v1/payments/payment-links", "listPaymentLinks", "Payments"],
  ["post", "/api/v1/payments/payment-links", "createPaymentLink", "Payments"],
  ["get", "/api/v1/payments/payment-links/{paymentLinkId}", "getPaymentLink", "Payments"],
  ["patch", "/api/v1/payments/payment-links/{paymentLinkId}", "setPaymentLinkArchived", "Payments"],
  ["get", "/api/v1/payments/plans", "listPlans", "Payments"],
  ["post", "/api/v1/payments/plans", "createPlan", "Payments"],
  ["get", "/api/v1/payments/plans/{planId}", "getPlan", "Payments"],
  ["post", "/api/v1/shared/otp/generate", "generateOtp", "OTP"],
  ["post", "/api/v1/shared/otp/verify", "verifyOtp", "OTP"],
  ["get", "/api/v1/shared/otp/status/{otpId}", "getOtpStatus", "OTP"],
  ["get", "/admin/v1/projects", "listProjects", "Admin"],
  ["post", "/admin/v1/projects", "createProject", "Admin"],
  ["post", "/admin/v1/projects/{projectId}/api-keys", "createApiKey", "Admin"],
  ["get", "/admin/v1/projects/{projectId}/api-keys", "listApiKeys", "Admin"],
  ["post", "/admin/v1/projects/{projectId}/api-keys/{apiKeyId}/revoke", "revokeApiKey", "Admin"],
  ["post", "/admin/v1/signing-keys/rotate", "rotateSigningKeys", "Admin"],
  ["post", "/admin/v1/dashboard-sessions/revoke", "revokeDashboardSessions", "Admin"],
  ["post", "/admin/v1/secrets/reseal", "resealSecrets", "Admin"],
  ["post", "/admin/v1/service-tokens", "createServiceToken", "Admin"],
  ["get", "/admin/v1/otp/messages", "listOtpDevMessages", "Admin"],
  ["get", "/admin/v1/messages", "listDevMessages", "Admin"],
  ["get", "/admin/v1/projects/{projectId}/billing-settings", "getBillingSettings", "Admin"],
  ["put", "/admin/v1/projects/{projectId}/billing-settings", "putBillingSettings", "Admin"],
  ["get", "/admin/v1/projects/{projectId}/otp-settings/{environment}", "getOtpSettings", "Admin"],
  ["put", "/admin/v1/projects/{projectId}/otp-settings/{environment}", "putOtpSettings", "Admin"],
  ["post", "/admin/v1/projects/{projectId}/payment-totals/rebuild", "rebuildPaymentTotals", "Admin"],
  ["get", "/admin/v1/projects/{projectId}/provider-accounts", "listProviderAccounts", "Admin"],
  ["put", "/admin/v1/projects/{projectId}/provider-accounts/{environment}", "putProviderAccount", "Admin"],
  ["get", "/admin/v1/projects/{projectId}/provider-accounts/{environment}", "getProviderAccount", "Admin"],
  ["delete", "/admin/v1/projects/{projectId}/provider-accounts/{environment}", "deleteProviderAccount", "Admin"],
  ["get", "/admin/v1/projects/{projectId}/provider-routing/{environment}", "getProviderRouting", "Admin"],
  ["put", "/admin/v1/projects/{projectId}/provider-routing/{environment}", "putProviderRouting", "Admin"],
  ["get", "/healthz", "healthz", "Health"],
  ["get", "/readyz", "readyz", "Health"],
  ["post", "/api/v1/payments/test-helpers/checkouts/{checkoutId}/pay", "payCheckoutTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/refunds/{refundId}/succeed", "succeedRefundTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/refunds/{refundId}/fail", "failRefundTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/checkouts/{checkoutId}/fail", "failCheckoutTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/checkouts/{checkoutId}/expire", "expireCheckoutTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/intents/{paymentIntentId}/succeed", "succeedPaymentIntentTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/intents/{paymentIntentId}/fail", "failPaymentIntentTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/subscriptions/{subscriptionId}/advance", "advanceSubscriptionTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/billing-clock/run", "runBillingClockTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/invoices/{invoiceId}/pay", "payInvoiceTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/invoices/{invoiceId}/fail", "failInvoiceTestHelper", "Test helpers"],
  ["post", "/api/v1/payments/test-helpers/payment-links/{paymentLinkId}/pay", "payPaymentLinkTestHelper", "Test helpers"],
  ["post", "/api/v1/webhook-endpoints", "createWebhookEndpoint", "Webhooks"],
  ["get", "/api/v1/webhook-endpoints", "listWebhookEndpoints", "Webhooks"],
  ["get", "/api/v1/webhook-endpoints/{webhookEndpointId}", "getWebhookEndpoint", "Webhooks"],
  ["patch", "/api/v1/webhook-endpoints/{webhookEndpointId}", "updateWebhookEndpoint", "Webhooks"],
  ["delete", "/api/v1/webhook-endpoints/{webhookEndpointId}", "deleteWebhookEndpoint", "Webhooks"],
  ["post", "/api/v1/webhook-endpoints/{webhookEndpointId}/rotate-secret", "rotateWebhookEndpointSecret", "Webhooks"],
  ["post", "/api/v1/webhook-endpoints/{webhookEndpointId}/test", "sendTestWebhookEvent", "Webhooks"],
  ["get", "/api/v1/events", "listEvents", "Webhooks"],
  ["get", "/api/v1/events/{eventId}", "getEvent", "Webhooks"],
  ["get", "/api/v1/webhook-endpoints/{webhookEndpointId}/deliveries", "listWebhookDeliveries", "Webhooks"],
  ["post", "/api/v1/webhook-endpoints/{webhookEndpointId}/deliveries/{eventId}/redeliver", "redeliverWebhookEvent", "Webhooks"],
];

/** Webhook operations: reads need webhooks:read, every other method webhooks:write. */
const isWebhookPath = (path: string) => path.startsWith("/api/v1/webhook-endpoints") || path.startsWith("/api/v1/events");

/** The scopes (any one of which grants access) of the operations whose scope is not the default. */
const specialScopes: Record<string, string[]> = {
  createRefund: ["payments:refunds:write", "payments:write"],
  getRefund: ["payments:refunds:read"],
  succeedRefundTestHelper: ["payments:refunds:write", "payments:write"],
  failRefundTestHelper: ["payments:refunds:write", "payments:write"],
  generateOtp: ["otp:generate"],
  verifyOtp: ["otp:verify"],
  getOtpStatus: ["otp:read"],
};

const pathSafe = String.raw`^(?!\.\.?$)[^\u0000-\u001F\u007F-\u009F/\\]+$`;

/** Path parameter schemas the interface fixes. */
const pathParameterRules: Record<string, { pattern?: string; minLength?: number; maxLength?: number }> = {
  checkoutId: { pattern: "^chk_[A-Za-z0-9_]+$" },
  paymentIntentId: { pattern: "^pi_[A-Za-z0-9_]+$" },
  customerId: { pattern: "^cus_[A-Za-z0-9_]+$" },
  refundId: { pattern: "^ref_[A-Za-z0-9_]+$" },
  subscriptionId: { pattern: "^sub_[A-Za-z0-9_]+$" },
  invoiceId: { pattern: "^inv_[A-Za-z0-9_]+$" },
  // The interface's "string of length 1 to 255" and "plain strings", narrowed to what a path
  // segment carries both ways (PathSafeString).
  referenceId: { minLength: 1, maxLength: 255, pattern: pathSafe },
  paymentLinkId: { minLength: 1, maxLength: 255, pattern: pathSafe },
  planId: { minLength: 1, maxLength: 255, pattern: pathSafe },
  otpId: { minLength: 1, maxLength: 255, pattern: pathSafe },
  // Unknown ids are the webhooks service's 404, like payment links'.
  webhookEndpointId: { minLength: 1, maxLength: 255, pattern: pathSafe },
  eventId: { minLength: 1, maxLength: 255, pattern: pathSafe },
  projectId: { pattern: "^prj_[A-Za-z0-9]+$" },
  apiKeyId: { pattern: "^key_[A-Za-z0-9]+$" },
  // test or live (the Environment schema).
  environment: {},
};

const bodylessOperations = [
  "cancelCheckout",
  "confirmPaymentIntent",
  "cancelPaymentIntent",
  "cancelSubscription",
  "payCheckoutTestHelper",
  "succeedRefundTestHelper",
  "failRefundTestHelper",
  "failCheckoutTestHelper",
  "expireCheckoutTestHelper",
  "succeedPaymentIntentTestHelper",
  "failPaymentIntentTestHelper",
  "advanceSubscriptionTestHelper",
  "payInvoiceTestHelper",
  "failInvoiceTestHelper",
  "payPaymentLinkTestHelper",
  "revokeApiKey",
  "rotateSigningKeys",
  "revokeDashboardSessions",
  "resealSecrets",
  "rotateWebhookEndpointSecret",
  "sendTestWebhookEvent",
  "redeliverWebhookEvent",
];

const idempotencyRef = "#/components/parameters/IdempotencyKey";

let doc: JsonObject;
let ajv: Ajv2020;

function operation(method: string, path: string): Operation {
  const paths = doc.paths as unknown as Record<string, Record<string, Operation>>;
  const item = paths[path];
  if (!item) throw new Error(`missing path ${path}`);
  const op = item[method];
  if (!op) throw new Error(`missing ${method.toUpperCase()} ${path}`);
  return op;
}

function allOperations(): Array<{ method: string; path: string; op: Operation }> {
  const out: Array<{ method: string; path: string; op: Operation }> = [];
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  for (const [path, item] of Object.entries(doc.paths as unknown as Record<string, Record<string, Operation>>)) {
    for (const method of methods) if (item[method]) out.push({ method, path, op: item[method] });
  }
  return out;
}

/** Resolves a local JSON pointer (`#/a/b`) in the document, or returns undefined. */
function resolvePointer(ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = Array.isArray(node) ? node[Number(key)] : (node as JsonObject)[key];
    if (node === undefined) return undefined;
  }
  return node;
}

function deref<T = JsonObject>(value: Json | undefined): T {
  let node = value;
  for (let i = 0; i < 10 && node && typeof node === "object" && !Array.isArray(node) && typeof node.$ref === "string"; i++) {
    node = resolvePointer(node.$ref);
  }
  return node as T;
}

function collectRefs(node: Json, at: string, out: Array<{ ref: string; at: string }>): void {
  if (Array.isArray(node)) node.forEach((child, i) => collectRefs(child, `${at}/${i}`, out));
  else if (node && typeof node === "object") {
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string") out.push({ ref: child, at });
      else collectRefs(child, `${at}/${key}`, out);
    }
  }
}

function validator(schemaName: string) {
  return ajv.compile({ $ref: `openapi.json#/components/schemas/${schemaName}` });
}

function accepts(schemaName: string, value: unknown): boolean {
  return validator(schemaName)(value) as boolean;
}

const money = (amountMinor: number) => ({ amountMinor, currency: "PHP" });

beforeAll(() => {
  doc = parse(readFileSync(documentPath, "utf8")) as JsonObject;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, "openapi.json");
});

describe("openapi document", () => {
  it("is OpenAPI 3.1 with version 1.0.0, title and the four tags", () => {
    expect(String(doc.openapi)).toMatch(/^3\.1\.\d+$/);
    const info = doc.info as JsonObject;
    expect(info.version).toBe("1.0.0");
    expect(info.title).toBe("Bayad API");
    const tags = (doc.tags as JsonObject[]).map((t) => t.name);
    expect(tags).toEqual(expect.arrayContaining(["Payments", "OTP", "Admin", "Health"]));
  });

  it("documents every error code and the idempotency rules in info.description", () => {
    const description = String((doc.info as JsonObject).description);
    expect(description).toContain("## Errors");
    expect(description).toContain("## Idempotency");
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      const status = entry.http;
      expect(description).toMatch(new RegExp(`\\| \`${code}\` \\| ${status} \\|`));
    }
    expect(description).toContain("Idempotent-Replayed: true");
    expect(description).toContain("24 hours");
    expect(description).toContain("7 days");
  });

  it("declares every endpoint of the interface with its operationId and tag, and nothing else", () => {
    for (const [method, path, operationId, tag] of endpoints) {
      const op = operation(method, path);
      expect(op.operationId, `${method} ${path}`).toBe(operationId);
      expect(op.tags, operationId).toEqual([tag]);
    }
    const declared = allOperations().map(({ op }) => op.operationId).sort();
    expect(declared).toEqual(endpoints.map(([, , id]) => id).sort());
  });

  it("requires the Idempotency-Key header on every non-admin POST, PATCH and DELETE, and nowhere else", () => {
    const parameter = resolvePointer(idempotencyRef) as JsonObject;
    expect(parameter).toMatchObject({
      name: "Idempotency-Key",
      in: "header",
      required: true,
      schema: { type: "string", minLength: 16, maxLength: 255 },
    });
    for (const { method, path, op } of allOperations()) {
      const refs = (op.parameters ?? []).filter((p) => p.$ref === idempotencyRef);
      const mutating = method === "post" || method === "patch" || method === "delete";
      const admin = path.startsWith("/admin/");
      expect(refs.length, `${op.operationId}`).toBe(mutating && !admin ? 1 : 0);
    }
  });

  it("resolves every $ref", () => {
    const refs: Array<{ ref: string; at: string }> = [];
    collectRefs(doc, "#", refs);
    expect(refs.length).toBeGreaterThan(100);
    const broken = refs.filter(({ ref }) => resolvePointer(ref) === undefined);
    expect(broken).toEqual([]);
  });

  it("compiles every component schema with Ajv 2020", () => {
    const names = Object.keys((doc.components as JsonObject).schemas as JsonObject);
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) expect(() => validator(name), name).not.toThrow();
  });

  it("closes every object schema with additionalProperties", () => {
    const open: string[] = [];
    const visit = (node: Json, at: string) => {
      if (Array.isArray(node)) node.forEach((c, i) => visit(c, `${at}/${i}`));
      else if (node && typeof node === "object") {
        if (node.type === "object" && node.properties && node.additionalProperties !== false) open.push(at);
        for (const [k, c] of Object.entries(node)) visit(c, `${at}/${k}`);
      }
    };
    visit((doc.components as JsonObject).schemas as Json, "#/components/schemas");
    expect(open).toEqual([]);
  });

  it("declares path parameters in: path, required, with the interface's rules", () => {
    for (const { path, op } of allOperations()) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const declared = (op.parameters ?? []).map((p) => deref(p)).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), `${op.operationId}`).toEqual([...names].sort());
      for (const p of declared) {
        expect(p.required, `${op.operationId} ${String(p.name)}`).toBe(true);
        const rule = pathParameterRules[String(p.name)];
        expect(rule, String(p.name)).toBeDefined();
        expect(deref(p.schema as Json), `${op.operationId} ${String(p.name)}`).toMatchObject({ type: "string", ...rule });
      }
    }
  });

  it("declares the listPaymentRecords query parameters", () => {
    const op = operation("get", "/api/v1/payments/records");
    const query = Object.fromEntries(
      (op.parameters ?? []).map((p) => deref(p)).filter((p) => p.in === "query").map((p) => [String(p.name), p]),
    );
    expect(Object.keys(query).sort()).toEqual([
      "amountMax", "amountMin", "createdAfter", "createdBefore", "cursor", "customerId", "limit", "metadata", "paymentMethod",
      "providerAccountId", "referenceId", "relatedResourceId", "status", "type",
    ]);
    for (const p of Object.values(query)) expect(p.required ?? false).toBe(false);
    expect(query.limit!.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
    expect(query.createdAfter!.schema).toMatchObject({ type: "string", format: "date-time" });
    expect(query.createdBefore!.schema).toMatchObject({ type: "string", format: "date-time" });
    expect(query.referenceId!.schema).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
    expect(query.relatedResourceId!.schema).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
    const recordType = deref((resolvePointer("#/components/schemas/PaymentRecord/properties/type") as Json));
    expect((query.type!.schema as JsonObject).enum).toEqual(recordType.enum);
    expect(query.amountMin!.schema).toMatchObject({ type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    expect(deref(query.paymentMethod!.schema as Json).enum).toEqual(["card", "qrph", "gcash", "maya", "grabpay", "shopeepay", "online_banking"]);
    // The export takes the same filters, without paging.
    const exported = operation("get", "/api/v1/payments/records/export").parameters!.map((p) => deref(p));
    const { limit: _limit, cursor: _cursor, ...filters } = query;
    expect(exported).toEqual(Object.values(filters));
  });

  it("gives every request body a closed, referenced application/json schema", () => {
    for (const { method, op } of allOperations()) {
      if (method !== "post" && method !== "patch" && method !== "put") {
        expect(op.requestBody, `${op.operationId}`).toBeUndefined();
        continue;
      }
      const body = op.requestBody as JsonObject;
      expect(body, `${op.operationId}`).toBeDefined();
      const schema = ((body.content as JsonObject)["application/json"] as JsonObject).schema as JsonObject;
      expect(String(schema.$ref), `${op.operationId}`).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(deref(schema).additionalProperties, `${op.operationId}`).toBe(false);
      const bodyless = bodylessOperations.includes(String(op.operationId));
      expect(body.required, `${op.operationId}`).toBe(!bodyless);
      if (bodyless) expect(deref(schema)).toMatchObject({ type: "object", additionalProperties: false, maxProperties: 0 });
    }
  });

  it("declares every status each operation can produce, with the shared error responses", () => {
    const expected: Record<string, string> = {
      "400": "BadRequest", "401": "Unauthorized", "403": "Forbidden", "404": "NotFound", "409": "Conflict",
      "413": "PayloadTooLarge", "415": "UnsupportedMediaType", "429": "TooManyRequests", "500": "InternalError",
      "503": "ServiceUnavailable",
    };
    for (const { method, path, op } of allOperations()) {
      const id = String(op.operationId);
      const statuses = Object.keys(op.responses);
      // Every operation refuses unknown query parameters, the probes too.
      const must: string[] = ["400", "500"];
      const health = path === "/healthz" || path === "/readyz";
      if (!health) must.push("401", "403", "503");
      if (path.includes("{")) must.push("404");
      if (method === "post" || method === "patch" || method === "put") must.push("409", "413", "415");
      // Every operation of a project credential is rate limited (docs/api/rate-limits.md).
      const limited = JSON.stringify(op.security ?? []).includes("bearerAuth");
      if (limited) must.push("429");
      if (id === "readyz") must.push("503");
      for (const status of must) {
        expect(statuses, `${id} ${status}`).toContain(status);
        expect(op.responses[status]!.$ref, `${id} ${status}`).toBe(`#/components/responses/${expected[status]}`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        const resolved = deref(response);
        const headers = resolved.headers as JsonObject | undefined;
        expect(headers?.["X-Correlation-Id"], `${id} ${status} X-Correlation-Id`).toEqual({
          $ref: "#/components/headers/XCorrelationId",
        });
        // The export answers a file, not an envelope (its errors are envelopes like any other).
        if (id === "exportPaymentRecords" && status === "200") {
          expect(Object.keys(resolved.content as JsonObject), id).toEqual(["text/csv"]);
          expect(headers?.["RateLimit-Policy"], id).toEqual({ $ref: "#/components/headers/RateLimitPolicy" });
          continue;
        }
        const schema = ((resolved.content as JsonObject)["application/json"] as JsonObject).schema as JsonObject;
        if (status.startsWith("2")) {
          expect(String(schema.$ref), `${id} ${status}`).toMatch(/Envelope$/);
          if (limited) {
            expect(headers?.["RateLimit-Policy"], `${id} ${status}`).toEqual({ $ref: "#/components/headers/RateLimitPolicy" });
            expect(headers?.RateLimit, `${id} ${status}`).toEqual({ $ref: "#/components/headers/RateLimit" });
          }
          if ((method === "post" || method === "patch" || method === "delete") && !path.startsWith("/admin/")) {
            expect(headers?.["Idempotent-Replayed"], `${id} ${status}`).toEqual({
              $ref: "#/components/headers/IdempotentReplayed",
            });
          }
        } else {
          expect(schema.$ref, `${id} ${status}`).toBe("#/components/schemas/ErrorEnvelope");
        }
      }
    }
    const tooMany = resolvePointer("#/components/responses/TooManyRequests") as JsonObject;
    expect(Object.keys(tooMany.headers as JsonObject)).toEqual(expect.arrayContaining(["Retry-After", "RateLimit-Policy", "RateLimit"]));
    const checkout = operation("post", "/api/v1/payments/checkouts").responses;
    expect(checkout["201"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/CheckoutEnvelope" } } },
    });
    expect(checkout["202"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/PendingResourceEnvelope" } } },
    });
  });

  it("declares security and x-scopes per operation", () => {
    const schemes = (doc.components as JsonObject).securitySchemes as JsonObject;
    expect(schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes.adminAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { method, path, op } of allOperations()) {
      const id = String(op.operationId);
      if (path.startsWith("/admin/")) {
        expect(op.security, id).toEqual([{ adminAuth: [] }]);
        expect(op["x-scopes"], id).toBeUndefined();
      } else if (path === "/healthz" || path === "/readyz") {
        expect(op.security, id).toEqual([]);
      } else {
        expect(op.security, id).toEqual([{ bearerAuth: [] }]);
        const area = isWebhookPath(path) ? "webhooks" : "payments";
        const scopes = specialScopes[id] ?? [method === "get" ? `${area}:read` : `${area}:write`];
        expect(op["x-scopes"], id).toEqual(scopes);
        expect(op["x-credential"], id).toBe(path.startsWith("/api/v1/shared/otp/") ? "service_token" : undefined);
      }
    }
  });
});

describe("schema bounds", () => {
  it("Money: amountMinor 1 to 2^53-1, currency PHP only, closed", () => {
    expect(accepts("Money", money(0))).toBe(false);
    expect(accepts("Money", money(1))).toBe(true);
    expect(accepts("Money", money(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(accepts("Money", money(Number.MAX_SAFE_INTEGER + 1))).toBe(false);
    expect(accepts("Money", money(1.5))).toBe(false);
    expect(accepts("Money", { amountMinor: 100, currency: "USD" })).toBe(false);
    expect(accepts("Money", { amountMinor: 100 })).toBe(false);
    expect(accepts("Money", { ...money(100), extra: 1 })).toBe(false);
  });

  it("Metadata: string values only, at most 50 keys of 1 to 40 characters", () => {
    expect(accepts("Metadata", { orderId: "A-1" })).toBe(true);
    expect(accepts("Metadata", { orderId: 1 })).toBe(false);
    expect(accepts("Metadata", { ["k".repeat(41)]: "v" })).toBe(false);
    expect(accepts("Metadata", { "": "v" })).toBe(false);
    expect(accepts("Metadata", { k: "v".repeat(501) })).toBe(false);
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "v"]));
    expect(accepts("Metadata", fifty)).toBe(true);
    expect(accepts("Metadata", { ...fifty, k50: "v" })).toBe(false);
  });

  it("checkout create: referenceId 1 to 255, absolute URIs, metadata strings", () => {
    const valid = {
      referenceId: "order-1",
      amount: money(100),
      successUrl: "https://shop.example.com/ok",
      cancelUrl: "https://shop.example.com/cancel",
    };
    expect(accepts("CheckoutCreateRequest", valid)).toBe(true);
    expect(accepts("CheckoutCreateRequest", { ...valid, referenceId: "r".repeat(255) })).toBe(true);
    expect(accepts("CheckoutCreateRequest", { ...valid, referenceId: "r".repeat(256) })).toBe(false);
    expect(accepts("CheckoutCreateRequest", { ...valid, referenceId: "" })).toBe(false);
    for (const referenceId of [".", "..", "a/b", "a\\b", "a\u0000b", "tab\t", "del\u007f", "c1\u0085"]) {
      expect(accepts("CheckoutCreateRequest", { ...valid, referenceId }), JSON.stringify(referenceId)).toBe(false);
    }
    for (const referenceId of ["...", ".a", "a b", "100%", "a?b#c", "Parañaque", "注文", "~!*'()"]) {
      expect(accepts("CheckoutCreateRequest", { ...valid, referenceId }), JSON.stringify(referenceId)).toBe(true);
    }
    expect(accepts("CheckoutCreateRequest", { ...valid, successUrl: "not a url" })).toBe(false);
    expect(accepts("CheckoutCreateRequest", { ...valid, cancelUrl: "javascript:alert(1)" })).toBe(false);
    expect(accepts("CheckoutCreateRequest", { ...valid, metadata: { a: 1 } })).toBe(false);
    expect(accepts("CheckoutCreateRequest", { ...valid, amount: money(0) })).toBe(false);
    expect(accepts("CheckoutCreateRequest", { ...valid, unknown: true })).toBe(false);
    const { successUrl: _omit, ...missing } = valid;
    expect(accepts("CheckoutCreateRequest", missing)).toBe(false);
  });

  it("plan create: amount at least 2000, intervalCount 1 to 10, cycleCount at least 2", () => {
    const valid = { name: "Gold", amount: 2000, interval: "monthly" };
    expect(accepts("PlanCreateRequest", valid)).toBe(true);
    expect(accepts("PlanCreateRequest", { ...valid, amount: 1999 })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, intervalCount: 0 })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, intervalCount: 11 })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, cycleCount: 1 })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, cycleCount: 2 })).toBe(true);
    expect(accepts("PlanCreateRequest", { ...valid, interval: "daily" })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, name: "n".repeat(256) })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, description: "d".repeat(1001) })).toBe(false);
    expect(accepts("PlanCreateRequest", { ...valid, currency: "USD" })).toBe(false);
  });

  it("QR Ph create: expirySeconds 60 to 9000, description up to 255", () => {
    const valid = { referenceId: "qr-1", amount: money(100) };
    expect(accepts("QrPhPaymentIntentCreateRequest", valid)).toBe(true);
    expect(accepts("QrPhPaymentIntentCreateRequest", { ...valid, expirySeconds: 59 })).toBe(false);
    expect(accepts("QrPhPaymentIntentCreateRequest", { ...valid, expirySeconds: 60 })).toBe(true);
    expect(accepts("QrPhPaymentIntentCreateRequest", { ...valid, expirySeconds: 9000 })).toBe(true);
    expect(accepts("QrPhPaymentIntentCreateRequest", { ...valid, expirySeconds: 9001 })).toBe(false);
    expect(accepts("QrPhPaymentIntentCreateRequest", { ...valid, description: "d".repeat(256) })).toBe(false);
  });

  it("payment intent, customer, refund, subscription and payment link requests", () => {
    expect(accepts("PaymentIntentCreateRequest", { referenceId: "r".repeat(256), amount: money(1) })).toBe(false);
    expect(accepts("PaymentIntentCreateRequest", { referenceId: "r", amount: money(1) })).toBe(true);

    expect(accepts("CustomerCreateRequest", { customerReference: "u-1", email: "a@example.com" })).toBe(true);
    expect(accepts("CustomerCreateRequest", { customerReference: "u-1" })).toBe(false);
    expect(accepts("CustomerCreateRequest", { customerReference: "u-1", email: "nope" })).toBe(false);
    expect(accepts("CustomerCreateRequest", { customerReference: "", email: "a@example.com" })).toBe(false);
    expect(accepts("CustomerCreateRequest", { customerReference: "u", email: "a@example.com", name: "n".repeat(256) })).toBe(false);

    expect(accepts("RefundCreateRequest", { paymentId: "chk_abc", amount: money(1) })).toBe(true);
    expect(accepts("RefundCreateRequest", { paymentId: "pi_abc", amount: money(1), reason: "dup" })).toBe(true);
    expect(accepts("RefundCreateRequest", { paymentId: "cus_abc", amount: money(1) })).toBe(false);
    expect(accepts("RefundCreateRequest", { paymentId: "pi_abc", amount: money(1), reason: "r".repeat(501) })).toBe(false);

    expect(accepts("SubscriptionCreateRequest", { customerId: "cus_a", referenceId: "r", priceId: "plan_a" })).toBe(true);
    expect(accepts("SubscriptionCreateRequest", { customerId: "x_a", referenceId: "r", priceId: "plan_a" })).toBe(false);
    expect(accepts("SubscriptionCreateRequest", { customerId: "cus_a", referenceId: "r" })).toBe(false);

    const link = { referenceId: "l-1", amount: money(100), description: "Deposit" };
    expect(accepts("PaymentLinkCreateRequest", link)).toBe(true);
    expect(accepts("PaymentLinkCreateRequest", { ...link, description: "" })).toBe(false);
    expect(accepts("PaymentLinkCreateRequest", { ...link, remarks: "r".repeat(256) })).toBe(false);
    expect(accepts("PaymentLinkCreateRequest", { ...link, metadata: { n: 2 } })).toBe(false);
    expect(accepts("PaymentLinkArchiveRequest", { archive: true })).toBe(true);
    expect(accepts("PaymentLinkArchiveRequest", { archive: "yes" })).toBe(false);
    expect(accepts("PaymentLinkArchiveRequest", {})).toBe(false);
    expect(accepts("EmptyRequest", {})).toBe(true);
    expect(accepts("EmptyRequest", { reason: "x" })).toBe(false);
  });

  it("OTP requests: required fields, digits 4 to 10, ttl 60 to 1800, code digits, recipient per channel", () => {
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "sms" })).toBe(true);
    expect(accepts("OtpGenerateRequest", { recipient: "a@example.com", channel: "email", digits: 8, ttlSeconds: 600 })).toBe(true);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567" })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "fax" })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "a@example.com", channel: "sms" })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "email" })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "sms", digits: 3 })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "sms", digits: 11 })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "sms", ttlSeconds: 59 })).toBe(false);
    expect(accepts("OtpGenerateRequest", { recipient: "+639171234567", channel: "sms", ttlSeconds: 1801 })).toBe(false);
    expect(accepts("OtpVerifyRequest", { otpId: "otp_a", code: "123456" })).toBe(true);
    expect(accepts("OtpVerifyRequest", { otpId: "otp_a", code: "12a456" })).toBe(false);
    expect(accepts("OtpVerifyRequest", { otpId: "otp_a", code: "123" })).toBe(false);
    expect(accepts("OtpVerifyRequest", { otpId: "", code: "123456" })).toBe(false);
  });

  it("admin requests and responses", () => {
    expect(accepts("ProjectCreateRequest", { name: "Shop" })).toBe(true);
    expect(accepts("ProjectCreateRequest", { name: "" })).toBe(false);
    expect(accepts("ApiKeyCreateRequest", { environment: "test" })).toBe(true);
    expect(accepts("ApiKeyCreateRequest", { environment: "prod" })).toBe(false);
    const token = { projectId: "prj_abc123", environment: "live", subject: "shop", scopes: ["otp:generate"], ttlSeconds: 60 };
    expect(accepts("ServiceTokenCreateRequest", token)).toBe(true);
    expect(accepts("ServiceTokenCreateRequest", { ...token, scopes: [] })).toBe(false);
    expect(accepts("ServiceTokenCreateRequest", { ...token, scopes: ["otp:generate", "otp:generate"] })).toBe(false);
    expect(accepts("ServiceTokenCreateRequest", { ...token, scopes: ["admin"] })).toBe(false);
    expect(accepts("ServiceTokenCreateRequest", { ...token, ttlSeconds: 86401 })).toBe(false);
    expect(accepts("ServiceTokenCreateRequest", { ...token, projectId: "project_1" })).toBe(false);
    expect(accepts("ApiKeyEnvelope", { success: true, data: { apiKey: "sk_test_Ab12", keyId: "key_Ab12", environment: "test" } })).toBe(true);
    expect(accepts("ApiKeyEnvelope", { success: true, data: { apiKey: "pk_test_Ab12", keyId: "key_Ab12", environment: "test" } })).toBe(false);
  });

  it("response envelopes and resources", () => {
    const checkout = { checkoutId: "chk_abc", referenceId: "o-1", status: "pending", amount: money(100) };
    expect(accepts("CheckoutEnvelope", { success: true, data: checkout })).toBe(true);
    expect(accepts("CheckoutEnvelope", { success: false, data: checkout })).toBe(false);
    expect(accepts("CheckoutEnvelope", { success: true, data: { ...checkout, status: "done" } })).toBe(false);
    expect(accepts("CheckoutEnvelope", { success: true, data: { ...checkout, secret: "x" } })).toBe(false);
    expect(accepts("PendingResourceEnvelope", { success: true, data: { status: "pending", resourceId: "chk_abc" } })).toBe(true);
    expect(
      accepts("QrPhPaymentIntentEnvelope", {
        success: true,
        data: {
          paymentIntentId: "pi_abc", referenceId: "q-1", status: "awaiting_next_action", amount: money(100),
          qrCodeImageUrl: "https://sandbox.example.com/qr/pi_abc.png", expirySeconds: 1800,
          expiresAt: "2030-01-01T00:30:00Z", aggregateVersion: 1,
        },
      }),
    ).toBe(true);
    expect(accepts("InvoiceListEnvelope", { success: true, data: [{ invoiceId: "inv_a", status: "open", amount: money(2000) }] })).toBe(true);
    expect(
      accepts("SubscriptionEnvelope", {
        success: true,
        data: { subscriptionId: "sub_a", customerId: "cus_a", status: "active", cancelAtPeriodEnd: true },
      }),
    ).toBe(true);

    const record = {
      type: "refund", id: "ref_a", projectId: "prj_a", environment: "test", referenceId: null,
      relatedResourceId: "chk_a", amountMinor: "-500", currency: "PHP", status: "pending",
      provider: null, providerAccountId: null, paymentMethod: "gcash", customerId: null, feeMinor: "0", netMinor: "-500",
      metadata: { orderId: "ORD-1" }, createdAt: "2030-01-01T00:00:00Z",
    };
    expect(accepts("PaymentRecordPageEnvelope", { success: true, data: { records: [record] } })).toBe(true);
    expect(accepts("PaymentRecordPageEnvelope", { success: true, data: { records: [record], nextCursor: "c" } })).toBe(true);
    expect(accepts("PaymentRecord", { ...record, amountMinor: null, currency: null, status: null })).toBe(true);
    expect(accepts("PaymentRecord", { ...record, amountMinor: "5.00" })).toBe(false);
    expect(accepts("PaymentRecord", { ...record, amountMinor: -500 })).toBe(false);
    const { status: _status, ...withoutStatus } = record;
    expect(accepts("PaymentRecord", withoutStatus)).toBe(false);
    const { metadata: _metadata, ...withoutMetadata } = record;
    expect(accepts("PaymentRecord", withoutMetadata)).toBe(false);
    expect(accepts("PaymentRecord", { ...record, feeMinor: null, netMinor: null, paymentMethod: null, metadata: {} })).toBe(true);
    expect(accepts("PaymentRecord", { ...record, feeMinor: "1.5" })).toBe(false);

    const totals = {
      paidCount: 2, paidMinor: "30000", failedCount: 0, failedMinor: "0", refundedCount: 1, refundedMinor: "500",
      feeMinor: "750", netMinor: "28750", unreportedFeeCount: 0,
    };
    const period = { start: "2030-01-01", end: "2030-01-07", paymentMethod: null, providerAccountId: "pa_a", totals };
    expect(accepts("PaymentsSummaryEnvelope", { success: true, data: { periods: [period], total: totals } })).toBe(true);
    expect(accepts("PaymentsSummaryEnvelope", { success: true, data: { periods: [], total: { ...totals, paidMinor: 30000 } } })).toBe(false);
    expect(accepts("PaymentTotalsRebuildEnvelope", { success: true, data: { recordsRead: 3, totalsWritten: 1 } })).toBe(true);

    expect(
      accepts("ErrorEnvelope", {
        success: false,
        error: { code: "VALIDATION_FAILED", message: "The request is invalid.", details: ["amount.amountMinor must be >= 1"] },
        meta: { timestamp: "2030-01-01T00:00:00Z", correlationId: "c-1" },
      }),
    ).toBe(true);
    expect(accepts("ErrorEnvelope", { success: false, error: { code: "X" } })).toBe(false);
    expect(accepts("ReadinessEnvelope", { success: true, data: { status: "ready", checks: { store: "ok" } } })).toBe(true);
    expect(accepts("HealthEnvelope", { success: true, data: { status: "ok" } })).toBe(true);
  });

  it("keeps every examples entry valid against its own schema", () => {
    const schemas = (doc.components as JsonObject).schemas as Record<string, JsonObject>;
    for (const [name, schema] of Object.entries(schemas)) {
      for (const example of (schema.examples as Json[] | undefined) ?? []) {
        const validate = validator(name);
        expect(validate(example), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });
});

describe("webhooks", () => {
  /** The event schema, by resource, that a public type's webhook body is. */
  const eventSchemaOf: Record<string, [event: string, resource: string]> = {
    checkout: ["CheckoutEvent", "Checkout"],
    payment_intent: ["PaymentIntentEvent", "PaymentIntent"],
    refund: ["RefundEvent", "Refund"],
    payment_link: ["PaymentLinkEvent", "PaymentLink"],
    subscription: ["SubscriptionEvent", "Subscription"],
    invoice: ["InvoiceEvent", "Invoice"],
    provider_account: ["ProviderAccountEvent", "ProviderAccount"],
  };
  const schema = (name: string) => resolvePointer(`#/components/schemas/${name}`) as JsonObject;
  const webhookBody = (type: string) =>
    ajv.compile({ $ref: `openapi.json#/webhooks/${type}/post/requestBody/content/application~1json/schema` });
  const checkout = { checkoutId: "chk_abc", referenceId: "o-1", status: "paid", amount: money(100), aggregateVersion: 3 };
  const event = (type: string, data: unknown) => ({ id: "evt_abc123", type, createdAt: "2030-01-01T00:00:00.000Z", environment: "test", data });

  it("describes one webhook per public event type (@bayad/public-resources' webhookEventTypes), and no other", () => {
    expect(Object.keys(doc.webhooks as JsonObject)).toEqual([...webhookEventTypes]);
  });

  it("names the one list of event types wherever the document lists them", () => {
    expect(schema("WebhookEventType").enum).toEqual([...webhookEventTypes]);
    expect(schema("EventType").enum).toEqual([...webhookEventTypes, testEventType]);
    const enabled = schema("WebhookEnabledEvents");
    expect((enabled.items as JsonObject).enum).toEqual([...webhookEventTypes, "*"]);
    expect(enabled.maxItems).toBe(webhookEventTypes.length);
    expect(((schema("PaymentCapabilities").properties as JsonObject).webhookEventTypes as JsonObject).items).toEqual({
      $ref: "#/components/schemas/WebhookEventType",
    });
    // Each public type belongs to exactly one resource's event schema.
    const perResource = Object.values(eventSchemaOf).flatMap(([name]) => ((schema(name).properties as JsonObject).type as JsonObject).enum as string[]);
    expect([...perResource].sort()).toEqual([...webhookEventTypes].sort());
  });

  it("gives each webhook a POST signed by the Standard Webhooks headers, its body the event with the resource as data", () => {
    const headers = ["webhook-id", "webhook-timestamp", "webhook-signature"];
    for (const type of webhookEventTypes) {
      const post = ((doc.webhooks as JsonObject)[type] as JsonObject).post as unknown as Operation;
      expect(post, type).toBeDefined();
      const declared = (post.parameters ?? []).map((p) => deref(p));
      expect(declared.map((p) => [p.name, p.in, p.required]), type).toEqual(headers.map((name) => [name, "header", true]));
      expect(String(post.description), type).toMatch(/at least once/);
      expect(String(post.description), type).toMatch(/no guaranteed order/);
      const body = post.requestBody as JsonObject;
      expect(body.required, type).toBe(true);
      const bodySchema = ((body.content as JsonObject)["application/json"] as JsonObject).schema as JsonObject;
      const [eventName, resourceName] = eventSchemaOf[type.slice(0, type.indexOf("."))]!;
      expect(bodySchema.allOf, type).toEqual([{ $ref: `#/components/schemas/${eventName}` }, { properties: { type: { const: type } } }]);
      expect((schema(eventName).properties as JsonObject).data, type).toEqual({ $ref: `#/components/schemas/${resourceName}` });
      expect(Object.keys(post.responses).sort(), type).toEqual(["2XX", "410", "default"]);
    }
  });

  it("checks a delivered body against its type's webhook: the type and the resource must match", () => {
    expect(webhookBody("checkout.paid")(event("checkout.paid", checkout))).toBe(true);
    expect(webhookBody("checkout.paid")(event("checkout.expired", { ...checkout, status: "expired" }))).toBe(false);
    expect(webhookBody("payment_intent.succeeded")(event("payment_intent.succeeded", checkout))).toBe(false);
    expect(webhookBody("checkout.paid")({ ...event("checkout.paid", checkout), extra: 1 })).toBe(false);
    expect(webhookBody("checkout.paid")({ ...event("checkout.paid", checkout), id: "chk_abc" })).toBe(false);
  });

  it("answers listed events in the delivered form, test events included", () => {
    expect(accepts("EventEnvelope", { success: true, data: event("checkout.paid", checkout) })).toBe(true);
    expect(accepts("EventEnvelope", { success: true, data: event("checkout.paid", { paymentIntentId: "pi_a" }) })).toBe(false);
    expect(accepts("EventEnvelope", { success: true, data: event("webhook.test", { message: "hello" }) })).toBe(true);
    expect(accepts("EventPageEnvelope", { success: true, data: { events: [event("webhook.test", {})], nextCursor: "c" } })).toBe(true);
  });

  it("webhook endpoint requests: url http(s) without userinfo up to 2048, public types or [\"*\"], description up to 500", () => {
    const valid = { url: "https://shop.example.ph/bayad/events", enabledEvents: ["checkout.paid"] };
    expect(accepts("WebhookEndpointCreateRequest", valid)).toBe(true);
    const long = (length: number) => `https://shop.example.ph/${"a".repeat(length - "https://shop.example.ph/".length)}`;
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, url: long(2048) })).toBe(true);
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, url: long(2049) })).toBe(false);
    for (const url of ["http://127.0.0.1:4000/hooks", "https://[::1]:8443/", "https://shop.example.ph:8443/a?b=c"]) {
      expect(accepts("WebhookEndpointCreateRequest", { ...valid, url }), url).toBe(true);
    }
    for (const url of ["ftp://shop.example.ph/", "https://user:pw@shop.example.ph/", "https://user@shop.example.ph/", "//shop.example.ph/", "shop.example.ph", "https://", "https://shop example/"]) {
      expect(accepts("WebhookEndpointCreateRequest", { ...valid, url }), url).toBe(false);
    }
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, enabledEvents: ["*"] })).toBe(true);
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, enabledEvents: [...webhookEventTypes] })).toBe(true);
    for (const enabledEvents of [[], ["*", "checkout.paid"], ["checkout.paid", "checkout.paid"], ["charge.succeeded"], [testEventType], "*"]) {
      expect(accepts("WebhookEndpointCreateRequest", { ...valid, enabledEvents }), JSON.stringify(enabledEvents)).toBe(false);
    }
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, description: "d".repeat(500) })).toBe(true);
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, description: "d".repeat(501) })).toBe(false);
    expect(accepts("WebhookEndpointCreateRequest", { ...valid, metadata: { team: 1 } })).toBe(false);
    expect(accepts("WebhookEndpointCreateRequest", { url: valid.url })).toBe(false);

    expect(accepts("WebhookEndpointUpdateRequest", {})).toBe(false);
    expect(accepts("WebhookEndpointUpdateRequest", { status: "disabled" })).toBe(true);
    expect(accepts("WebhookEndpointUpdateRequest", { status: "paused" })).toBe(false);
    expect(accepts("WebhookEndpointUpdateRequest", { description: "" })).toBe(true);
    expect(accepts("WebhookEndpointUpdateRequest", { metadata: { team: "x" } })).toBe(false);
  });

  it("declares 422 WEBHOOK_URL_NOT_ALLOWED where a URL is set, and 409 where a disabled endpoint is refused", () => {
    for (const [method, path] of [["post", "/api/v1/webhook-endpoints"], ["patch", "/api/v1/webhook-endpoints/{webhookEndpointId}"]] as const) {
      expect(operation(method, path).responses["422"]).toEqual({ $ref: "#/components/responses/WebhookUrlNotAllowed" });
    }
    for (const path of ["/api/v1/webhook-endpoints/{webhookEndpointId}/test", "/api/v1/webhook-endpoints/{webhookEndpointId}/deliveries/{eventId}/redeliver"]) {
      expect(operation("post", path).responses["409"]).toEqual({ $ref: "#/components/responses/Conflict" });
      expect(operation("post", path).responses["202"]).toBeDefined();
    }
  });
});
