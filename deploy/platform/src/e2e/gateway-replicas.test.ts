import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGatewayConfig, type RunningGateway } from "@bayad/gateway";
import { newIdempotencyKey, startGatewayReplica, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

describe("two gateway replicas sharing one store", () => {
  let api: TestPlatform;
  let second: RunningGateway;

  beforeAll(async () => {
    api = await startTestPlatform();
    second = await startGatewayReplica(api.platform);
  });
  afterAll(async () => {
    await second.close();
    await api.close();
  });

  it("accept each other's API keys and create one customer from one key sent to both", async () => {
    const key = newIdempotencyKey();
    const body = JSON.stringify({ customerReference: "replicas-1", email: "r@example.ph" });
    const send = (base: string) =>
      fetch(`${base}/api/v1/payments/customers`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${api.platform.testApiKey}`,
          "Idempotency-Key": key,
          "Content-Type": "application/json",
        },
        body,
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => send(i % 2 === 0 ? api.platform.gatewayUrl : second.url)),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(responses.filter((r) => r.status !== 201).every((r) => r.body.error.code === "IDEMPOTENCY_KEY_IN_PROGRESS")).toBe(true);
    expect(new Set(created.map((r) => r.body.data.customerId)).size).toBe(1);
    expect(await api.platform.stores.payments.collection({ name: "customers" }).count({ customerReference: "replicas-1" })).toBe(1);
  });

  it("share the development token issuer's signing key", async () => {
    const token = await api.serviceToken(api.platform.projectId, ["payments:read"]);
    const response = await fetch(`${second.url}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
  });
});

describe("the development token issuer switched off (DEV_TOKEN_ISSUER=off)", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform({ DEV_TOKEN_ISSUER: "off" });
  });
  afterAll(() => api.close());

  it("issues no service tokens", async () => {
    const response = await api.admin("POST", "/admin/v1/service-tokens", {
      projectId: api.platform.projectId,
      environment: "test",
      subject: "svc",
      scopes: ["payments:read"],
      ttlSeconds: 600,
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("ROUTE_NOT_FOUND");
  });

  it("publishes no JWKS and trusts no token of a development issuer", async () => {
    expect((await fetch(`${api.platform.gatewayUrl}/.well-known/jwks.json`)).status).toBe(404);
    const other = await startTestPlatform();
    try {
      const token = await other.serviceToken(other.platform.projectId, ["payments:read"]);
      const response = await api.request("GET", "/api/v1/payments/capabilities", { credential: token });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe("INVALID_CREDENTIALS");
    } finally {
      await other.close();
    }
  });
});

describe("configuration", () => {
  it("refuses an admin key shorter than 16 characters, naming ADMIN_API_KEY", () => {
    expect(() => readGatewayConfig({ ADMIN_API_KEY: randomBytes(4).toString("hex") })).toThrow(/^ADMIN_API_KEY /);
  });
});
