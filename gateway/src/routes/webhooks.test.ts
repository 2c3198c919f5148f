import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { PaymentsService, WebhookEndpointStatus, WebhooksService } from "@bayad/proto";
import { createLogger, startServiceServer, type RunningServer } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { webhookEventTypes } from "@bayad/public-resources";
import { readGatewayConfig } from "../config.js";
import { startGateway, type RunningGateway } from "../gateway.js";
import { createResponseValidator } from "../openapi/response-validator.js";
import type { ServiceAddresses } from "../rpc/service-clients.js";
import { createWebhooksServiceDouble } from "../test-support/webhooks-service-double.js";

/*
 * The webhooks API through a real gateway over HTTP, its services real gRPC servers (kit's):
 * a small payments service for capabilities and an in-memory WebhooksService that records what
 * the gateway asked (test-support/webhooks-service-double.ts). Every answer is checked against
 * the OpenAPI document. Delivery itself is the webhooks service's suite and the platform's.
 */

const logger = createLogger("test", process.env.LOG_LEVEL ?? "silent");
const checkResponse = createResponseValidator();
const adminKey = `adm_test_${randomBytes(16).toString("hex")}`;
const endpoints = "/api/v1/webhook-endpoints";

const checkout = {
  checkoutId: "chk_Pd3Kx8Qm2Lw7Zr5Vn1Ct9Bj4",
  referenceId: "order-1001",
  status: "paid",
  amount: { amountMinor: 150000, currency: "PHP" },
  aggregateVersion: 3,
};

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function startPaymentsDouble(): Promise<RunningServer> {
  return startServiceServer({
    serviceName: PaymentsService.typeName,
    routes: (router) =>
      router.service(PaymentsService, {
        getCapabilities: () => ({
          capabilities: { currency: "PHP", paymentMethods: ["card", "qrph"], resources: ["customers", "checkouts", "intents", "refunds"] },
        }),
      }),
    isReady: async () => true,
    logger,
  });
}

/** A gateway on a free port with its own embedded store, routing to `services`. */
async function startTestGateway(services: ServiceAddresses) {
  const store: Store = createEmbeddedStore();
  const gateway: RunningGateway = await startGateway({
    config: readGatewayConfig({
      PORT: "0",
      ADMIN_API_KEY: adminKey,
      DEV_TOKEN_ISSUER: "on",
      RATE_LIMIT_CREDENTIAL_READS: "100000",
      RATE_LIMIT_CREDENTIAL_WRITES: "100000",
      RATE_LIMIT_PROJECT_READS: "100000",
      RATE_LIMIT_PROJECT_WRITES: "100000",
    }),
    store,
    services,
    logger,
  });
  const project = await gateway.admin.projects.create("Kape Delivery");
  const { apiKey } = await gateway.admin.apiKeys.issue(project.projectId, "test");

  /** A request with `credential` (the project's test API key unless given), its answer checked against the document. */
  async function request(
    method: string,
    path: string,
    options: { body?: unknown; credential?: string; idempotencyKey?: string | null; unchecked?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.credential ?? apiKey}` };
    const key = options.idempotencyKey === undefined ? (method === "GET" ? null : `key-${randomBytes(12).toString("hex")}`) : options.idempotencyKey;
    if (key !== null) headers["Idempotency-Key"] = key;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const body = await response.json();
    if (!options.unchecked) {
      expect(checkResponse(method, path, response.status, body).problems, `${method} ${path} ${response.status}`).toEqual([]);
    }
    return { status: response.status, headers: response.headers, body };
  }

  async function serviceToken(scopes: string[], projectId = project.projectId): Promise<string> {
    const response = await fetch(`${gateway.url}/admin/v1/service-tokens`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ projectId, environment: "test", subject: "fulfilment", scopes }),
    });
    const body = (await response.json()) as { data: { accessToken: string } };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body.data.accessToken;
  }

  return {
    gateway,
    projectId: project.projectId,
    request,
    serviceToken,
    async close() {
      await gateway.close();
      await store.close();
    },
  };
}

function expectError(answer: Answer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.success).toBe(false);
  expect(answer.body.error.code).toBe(code);
}

describe("the webhooks API, routed to a WebhooksService", () => {
  const webhooks = createWebhooksServiceDouble();
  let payments: RunningServer;
  let webhooksServer: RunningServer;
  let api: Awaited<ReturnType<typeof startTestGateway>>;
  let other: Awaited<ReturnType<typeof api.gateway.admin.apiKeys.issue>>;

  /** The requests the service received since `from`. */
  const sentSince = (from: number) => webhooks.requests.slice(from);

  beforeAll(async () => {
    payments = await startPaymentsDouble();
    webhooksServer = await startServiceServer({
      serviceName: WebhooksService.typeName,
      routes: (router) => router.service(WebhooksService, webhooks.service),
      isReady: async () => true,
      logger,
    });
    api = await startTestGateway({ payments: payments.url, webhooks: webhooksServer.url });
    const otherProject = await api.gateway.admin.projects.create("Another shop");
    other = await api.gateway.admin.apiKeys.issue(otherProject.projectId, "test");
  });

  afterAll(async () => {
    await api?.close();
    await webhooksServer?.close();
    await payments?.close();
  });

  it("registers an endpoint, answering its secret once, then reads, lists, updates and deletes it", async () => {
    const created = await api.request("POST", endpoints, {
      body: { url: "https://shop.example.ph/bayad/events", enabledEvents: ["checkout.paid", "refund.succeeded"], description: "Fulfilment", metadata: { team: "ops" } },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    expect(endpoint).toMatchObject({
      url: "https://shop.example.ph/bayad/events",
      enabledEvents: ["checkout.paid", "refund.succeeded"],
      description: "Fulfilment",
      metadata: { team: "ops" },
      status: "enabled",
    });
    expect(endpoint.webhookEndpointId).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.disabledReason).toBeUndefined();
    const path = `${endpoints}/${endpoint.webhookEndpointId}`;

    const read = await api.request("GET", path);
    expect(read.status).toBe(200);
    expect(read.body.data.secret).toBeUndefined();
    expect(read.body.data).toEqual((({ secret: _secret, ...rest }) => rest)(endpoint));

    const listed = await api.request("GET", endpoints);
    expect(listed.status).toBe(200);
    expect(listed.body.data.webhookEndpoints.map((e: { webhookEndpointId: string }) => e.webhookEndpointId)).toContain(endpoint.webhookEndpointId);

    const updated = await api.request("PATCH", path, { body: { enabledEvents: ["*"], description: "Everything" } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ enabledEvents: ["*"], description: "Everything", url: endpoint.url, status: "enabled" });

    const key = `delete-${randomBytes(12).toString("hex")}`;
    const deleted = await api.request("DELETE", path, { idempotencyKey: key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ webhookEndpointId: endpoint.webhookEndpointId, deleted: true });
    // A retried delete answers as the first did, not 404: the key is replayed.
    const retried = await api.request("DELETE", path, { idempotencyKey: key });
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.data).toEqual(deleted.body.data);
    expectError(await api.request("GET", path), 404, "RESOURCE_NOT_FOUND");
  });

  it("passes an update's named fields only, each as the rpc's optional field", async () => {
    const created = await api.request("POST", endpoints, { body: { url: "https://shop.example.ph/a", enabledEvents: ["checkout.paid"] } });
    const id = created.body.data.webhookEndpointId as string;
    const from = webhooks.requests.length;

    const disabled = await api.request("PATCH", `${endpoints}/${id}`, { body: { status: "disabled" } });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.status).toBe("disabled");
    const enabledAgain = await api.request("PATCH", `${endpoints}/${id}`, { body: { status: "enabled", url: "https://shop.example.ph/b" } });
    expect(enabledAgain.body.data).toMatchObject({ status: "enabled", url: "https://shop.example.ph/b" });

    const [first, second] = sentSince(from).map((sent) => sent.request as Record<string, unknown>);
    expect(first).toMatchObject({ webhookEndpointId: id, status: WebhookEndpointStatus.DISABLED });
    expect(first!.url).toBeUndefined();
    expect(first!.enabledEvents).toBeUndefined();
    expect(first!.description).toBeUndefined();
    expect(second).toMatchObject({ url: "https://shop.example.ph/b", status: WebhookEndpointStatus.ENABLED });
  });

  it("rotates the secret: a new whsec_ secret and when the previous one stops signing", async () => {
    const created = await api.request("POST", endpoints, { body: { url: "https://shop.example.ph/rotate", enabledEvents: ["*"] } });
    const rotated = await api.request("POST", `${endpoints}/${created.body.data.webhookEndpointId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.body.data.secret);
    expect(Date.parse(rotated.body.data.previousSecretExpiresAt)).toBeGreaterThan(Date.parse(rotated.body.data.updatedAt));
  });

  it("lists events as their deliveries' bodies, data being the resource's JSON, with the filters passed on", async () => {
    const eventId = webhooks.addEvent(api.projectId, "test", "checkout.paid", checkout);
    webhooks.addEvent("prj_someoneelse", "test", "checkout.paid", checkout);
    const from = webhooks.requests.length;

    const listed = await api.request("GET", "/api/v1/events?type=checkout.paid&createdAfter=2029-12-31T23:59:59.123456789Z&limit=1");
    expect(listed.status).toBe(200);
    expect(listed.body.data.events).toEqual([
      { id: eventId, type: "checkout.paid", createdAt: expect.any(String), environment: "test", data: checkout },
    ]);
    // The order of the delivered body.
    expect(Object.keys(listed.body.data.events[0])).toEqual(["id", "type", "createdAt", "environment", "data"]);
    const [sent] = sentSince(from);
    expect(sent!.method).toBe("listEvents");
    const request = sent!.request as { type: string; limit: number; createdAfter: { seconds: bigint; nanos: number }; createdBefore?: unknown };
    expect(request.type).toBe("checkout.paid");
    expect(request.limit).toBe(1);
    expect(request.createdAfter.nanos).toBe(123_456_789);
    expect(timestampDate(request.createdAfter as never).toISOString()).toBe("2029-12-31T23:59:59.123Z");
    expect(request.createdBefore).toBeUndefined();

    const read = await api.request("GET", `/api/v1/events/${eventId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(listed.body.data.events[0]);
    expectError(await api.request("GET", `/api/v1/events/${eventId}`, { credential: other.apiKey }), 404, "RESOURCE_NOT_FOUND");
  });

  it("pages with the document's default size, and passes the continuation on", async () => {
    const from = webhooks.requests.length;
    const page = await api.request("GET", endpoints);
    expect((sentSince(from)[0]!.request as { limit: number }).limit).toBe(20);
    expect(page.body.data.nextCursor).toBeUndefined();
    const small = await api.request("GET", `${endpoints}?limit=1`);
    expect(small.body.data.webhookEndpoints).toHaveLength(1);
    expect(small.body.data.nextCursor).toBe("next-page");
    await api.request("GET", `${endpoints}?limit=1&cursor=next-page`);
    expect(webhooks.requests.at(-1)!.request).toMatchObject({ limit: 1, cursor: "next-page" });
  });

  it("sends a test event (202: the event and its pending attempt), lists the attempts, redelivers; a disabled endpoint is 409", async () => {
    const created = await api.request("POST", endpoints, { body: { url: "https://shop.example.ph/test", enabledEvents: ["refund.failed"] } });
    const id = created.body.data.webhookEndpointId as string;

    const sent = await api.request("POST", `${endpoints}/${id}/test`);
    expect(sent.status).toBe(202);
    expect(sent.body.data.event).toMatchObject({ type: "webhook.test", environment: "test", data: { webhookEndpointId: id } });
    expect(sent.body.data.delivery).toMatchObject({ webhookEndpointId: id, eventId: sent.body.data.event.id, attempt: 1, status: "pending", redelivery: false });
    expect(sent.body.data.delivery.attemptedAt).toBeUndefined();

    const again = await api.request("POST", `${endpoints}/${id}/deliveries/${sent.body.data.event.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ eventId: sent.body.data.event.id, attempt: 2, status: "pending", redelivery: true });

    const attempts = await api.request("GET", `${endpoints}/${id}/deliveries?eventId=${sent.body.data.event.id}`);
    expect(attempts.status).toBe(200);
    expect(attempts.body.data.deliveries.map((d: { attempt: number }) => d.attempt)).toEqual([2, 1]);

    webhooks.disable(id, "gone");
    const read = await api.request("GET", `${endpoints}/${id}`);
    expect(read.body.data).toMatchObject({ status: "disabled", disabledReason: "gone" });
    expectError(await api.request("POST", `${endpoints}/${id}/test`), 409, "INVALID_STATE_TRANSITION");
    expectError(await api.request("POST", `${endpoints}/${id}/deliveries/${sent.body.data.event.id}/redeliver`), 409, "INVALID_STATE_TRANSITION");
  });

  it("refuses what the document refuses before asking the service, naming the field", async () => {
    const from = webhooks.requests.length;
    const valid = { url: "https://shop.example.ph/events", enabledEvents: ["checkout.paid"] };
    const refused: Array<[body: unknown, field: string]> = [
      [{ ...valid, enabledEvents: ["charge.succeeded"] }, "enabledEvents"],
      [{ ...valid, enabledEvents: ["webhook.test"] }, "enabledEvents"],
      [{ ...valid, enabledEvents: ["*", "checkout.paid"] }, "enabledEvents"],
      [{ ...valid, enabledEvents: ["checkout.paid", "checkout.paid"] }, "enabledEvents"],
      [{ ...valid, enabledEvents: [] }, "enabledEvents"],
      [{ ...valid, url: "ftp://shop.example.ph/events" }, "url"],
      [{ ...valid, url: "https://user:secret@shop.example.ph/events" }, "url"],
      [{ ...valid, url: "not a url" }, "url"],
      [{ ...valid, url: `https://shop.example.ph/${"a".repeat(2048)}` }, "url"],
      [{ ...valid, description: "d".repeat(501) }, "description"],
      [{ ...valid, metadata: { team: 7 } }, "metadata"],
      [{ enabledEvents: ["checkout.paid"] }, "url"],
    ];
    for (const [body, field] of refused) {
      const answer = await api.request("POST", endpoints, { body });
      expectError(answer, 400, "VALIDATION_FAILED");
      expect(answer.body.error.details.some((detail: string) => detail.startsWith(field)), JSON.stringify(answer.body.error.details)).toBe(true);
    }
    expectError(await api.request("PATCH", `${endpoints}/we_anything`, { body: {} }), 400, "VALIDATION_FAILED");
    expectError(await api.request("PATCH", `${endpoints}/we_anything`, { body: { status: "paused" } }), 400, "VALIDATION_FAILED");
    for (const query of ["limit=0", "limit=101", "cursor=", "type=charge.succeeded", "createdAfter=yesterday", "unknown=1"]) {
      expectError(await api.request("GET", `/api/v1/events?${query}`), 400, "VALIDATION_FAILED");
    }
    expectError(await api.request("POST", endpoints, { body: valid, idempotencyKey: null }), 400, "IDEMPOTENCY_KEY_REQUIRED");
    expectError(await api.request("DELETE", `${endpoints}/we_anything`, { idempotencyKey: null }), 400, "IDEMPOTENCY_KEY_REQUIRED");
    expect(sentSince(from)).toEqual([]);
  });

  it("answers a URL the service refuses with 422 WEBHOOK_URL_NOT_ALLOWED naming url, leaving the key unused", async () => {
    const key = `refused-${randomBytes(12).toString("hex")}`;
    const refused = await api.request("POST", endpoints, {
      body: { url: "https://refused.example/events", enabledEvents: ["checkout.paid"] },
      idempotencyKey: key,
    });
    expectError(refused, 422, "WEBHOOK_URL_NOT_ALLOWED");
    expect(refused.body.error.details).toEqual(["url: refused.example resolves to a private address"]);
    // Nothing happened: the same key with a URL Bayad delivers to registers the endpoint.
    const fixed = await api.request("POST", endpoints, {
      body: { url: "https://shop.example.ph/events", enabledEvents: ["checkout.paid"] },
      idempotencyKey: key,
    });
    expect(fixed.status).toBe(201);
  });

  it("keeps projects apart: another project's endpoint is 404 and never listed", async () => {
    const created = await api.request("POST", endpoints, { body: { url: "https://shop.example.ph/mine", enabledEvents: ["invoice.paid"] } });
    const id = created.body.data.webhookEndpointId as string;
    for (const [method, path] of [
      ["GET", `${endpoints}/${id}`],
      ["PATCH", `${endpoints}/${id}`],
      ["DELETE", `${endpoints}/${id}`],
      ["POST", `${endpoints}/${id}/rotate-secret`],
      ["POST", `${endpoints}/${id}/test`],
      ["GET", `${endpoints}/${id}/deliveries`],
    ] as const) {
      const answer = await api.request(method, path, { credential: other.apiKey, body: method === "PATCH" ? { status: "disabled" } : undefined });
      expectError(answer, 404, "RESOURCE_NOT_FOUND");
    }
    const theirs = await api.request("GET", endpoints, { credential: other.apiKey });
    expect(theirs.body.data.webhookEndpoints).toEqual([]);
    expect((await api.request("GET", `${endpoints}/${id}`)).body.data.status).toBe("enabled");
  });

  it("needs webhooks:read for reads and webhooks:write for changes from a service token; API keys have both", async () => {
    const paymentsOnly = await api.serviceToken(["payments:read", "payments:write"]);
    const reader = await api.serviceToken(["webhooks:read"]);
    const writer = await api.serviceToken(["webhooks:write"]);
    const body = { url: "https://shop.example.ph/scoped", enabledEvents: ["payment_link.paid"] };

    for (const path of [endpoints, "/api/v1/events"]) {
      const refused = await api.request("GET", path, { credential: paymentsOnly });
      expectError(refused, 403, "INSUFFICIENT_SCOPE");
      expect(refused.body.error.message).toContain("webhooks:read");
      expect((await api.request("GET", path, { credential: reader })).status).toBe(200);
    }
    expectError(await api.request("POST", endpoints, { credential: paymentsOnly, body }), 403, "INSUFFICIENT_SCOPE");
    expectError(await api.request("POST", endpoints, { credential: reader, body }), 403, "INSUFFICIENT_SCOPE");
    const created = await api.request("POST", endpoints, { credential: writer, body });
    expect(created.status).toBe(201);
    expectError(await api.request("GET", `${endpoints}/${created.body.data.webhookEndpointId}`, { credential: writer }), 403, "INSUFFICIENT_SCOPE");
    expectError(await api.request("DELETE", `${endpoints}/${created.body.data.webhookEndpointId}`, { credential: reader }), 403, "INSUFFICIENT_SCOPE");
    expect((await api.request("DELETE", `${endpoints}/${created.body.data.webhookEndpointId}`)).status).toBe(200);
  });

  it("lists webhook-endpoints and events in capabilities, with the event types, and checks the service's health", async () => {
    const capabilities = await api.request("GET", "/api/v1/payments/capabilities");
    expect(capabilities.status).toBe(200);
    expect(capabilities.body.data.webhookEventTypes).toEqual([...webhookEventTypes]);
    expect(capabilities.body.data.resources).toEqual(["customers", "checkouts", "intents", "refunds", "webhook-endpoints", "events"]);

    const ready = await fetch(`${api.gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { data: { checks: unknown } }).data.checks).toMatchObject({ payments: "ok", webhooks: "ok" });
  });
});

describe("the webhooks API without a webhooks service", () => {
  let payments: RunningServer;
  let api: Awaited<ReturnType<typeof startTestGateway>>;

  beforeAll(async () => {
    payments = await startPaymentsDouble();
    api = await startTestGateway({ payments: payments.url });
  });

  afterAll(async () => {
    await api?.close();
    await payments?.close();
  });

  it("leaves webhooks out of capabilities", async () => {
    const capabilities = await api.request("GET", "/api/v1/payments/capabilities");
    expect(capabilities.body.data.webhookEventTypes).toBeUndefined();
    expect(capabilities.body.data.resources).toEqual(["customers", "checkouts", "intents", "refunds"]);
  });

  it("authenticates and validates, then answers 501 NOT_IMPLEMENTED", async () => {
    // No operation of the document declares 501: it is the deployment's answer, not the API's.
    expectError(await api.request("GET", endpoints, { unchecked: true }), 501, "NOT_IMPLEMENTED");
    expectError(await api.request("GET", "/api/v1/events/evt_abc", { unchecked: true }), 501, "NOT_IMPLEMENTED");
    const body = { url: "https://shop.example.ph/x", enabledEvents: ["checkout.paid"] };
    expectError(await api.request("POST", endpoints, { body, unchecked: true }), 501, "NOT_IMPLEMENTED");
    expectError(await api.request("POST", endpoints, { body: { url: "https://shop.example.ph/x", enabledEvents: ["nope"] } }), 400, "VALIDATION_FAILED");
    expectError(await api.request("GET", endpoints, { credential: await api.serviceToken(["payments:read"]) }), 403, "INSUFFICIENT_SCOPE");
  });
});
