import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, decodeProtectedHeader, generateKeyPair, importJWK, type JWK } from "jose";
import { openSealed } from "@bayad/kit";
import { expectError, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

/**
 * Who may call what: project API keys, development service tokens and their scopes, the admin
 * key, and tenancy between projects and between test and live.
 */

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

const capabilities = "/api/v1/payments/capabilities";
const customers = "/api/v1/payments/customers";

function newCustomer() {
  return { customerReference: unique("ref"), email: "maria@example.com" };
}

function expectBearerChallenge(response: ApiResponse): void {
  expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer\b/);
}

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/**
 * The dev issuer's own signing key, read from the gateway's store and opened with the gateway's
 * secret (it is stored sealed, for the purpose "dev-token-signing-key" with its kid as context),
 * for tokens the admin API will not mint.
 */
async function platformSigningKey() {
  const doc = await api.platform.stores.gateway
    .collection<{ _id: string; keys: { kid: string; sealedPrivateJwk?: string }[] }>({ name: "signing_keys" })
    .findOne({ _id: "dev-issuer" });
  const signing = doc?.keys[0];
  if (!signing?.sealedPrivateJwk) throw new Error("the dev issuer has no signing key in the gateway store");
  const jwk = JSON.parse(openSealed(api.platform.config.secret, "dev-token-signing-key", signing.kid, signing.sealedPrivateJwk)) as JWK;
  return importJWK(jwk, "ES256");
}

interface TokenClaims {
  projectId: string;
  scope: string;
  issuedAt: number;
  expiresAt: number;
  kid: string;
}

function signToken(claims: TokenClaims, key: Parameters<SignJWT["sign"]>[0]) {
  return new SignJWT({ scope: claims.scope, project_id: claims.projectId, environment: "test" })
    .setProtectedHeader({ alg: "ES256", kid: claims.kid })
    .setIssuer(api.platform.config.tokens.issuer)
    .setAudience(api.platform.config.tokens.audience)
    .setSubject("test-service")
    .setIssuedAt(claims.issuedAt)
    .setExpirationTime(claims.expiresAt)
    .sign(key);
}

describe("missing or unusable credentials", () => {
  it("answers 401 AUTHENTICATION_REQUIRED with a Bearer challenge when there is no Authorization header", async () => {
    const response = await api.request("GET", capabilities, { credential: null });

    expectError(response, 401, "AUTHENTICATION_REQUIRED");
    expectBearerChallenge(response);
  });

  it("answers 401 AUTHENTICATION_REQUIRED for a Basic credential", async () => {
    const response = await api.request("GET", capabilities, {
      credential: null,
      headers: { Authorization: `Basic ${Buffer.from(`user:${api.platform.testApiKey}`).toString("base64")}` },
    });

    expectError(response, 401, "AUTHENTICATION_REQUIRED");
    expectBearerChallenge(response);
  });

  it("answers 401 AUTHENTICATION_REQUIRED for a Bearer scheme with no token", async () => {
    const response = await api.request("GET", capabilities, { credential: null, headers: { Authorization: "Bearer " } });

    expectError(response, 401, "AUTHENTICATION_REQUIRED");
  });

  it("answers 401 INVALID_CREDENTIALS for an sk_test_ key the platform never issued", async () => {
    const response = await api.request("GET", capabilities, { credential: `sk_test_${"a".repeat(32)}` });

    expectError(response, 401, "INVALID_CREDENTIALS");
    expectBearerChallenge(response);
  });

  it("answers 401 INVALID_CREDENTIALS for a real key with one character changed", async () => {
    const key = api.platform.testApiKey;
    const tampered = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;

    const response = await api.request("GET", capabilities, { credential: tampered });

    expectError(response, 401, "INVALID_CREDENTIALS");
  });

  it.each([
    ["three segments of base64url noise", "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2lnbmF0dXJl"],
    ["a token whose segments are not base64url", "not.a.jwt!"],
    ["an unsigned alg none token", `${base64url('{"alg":"none"}')}.${base64url('{"sub":"x","exp":9999999999}')}.`],
    ["a single opaque string", "garbage-token"],
  ])("answers 401 INVALID_CREDENTIALS for a garbage JWT: %s", async (_label, token) => {
    const response = await api.request("GET", capabilities, { credential: token });

    expectError(response, 401, "INVALID_CREDENTIALS");
    expectBearerChallenge(response);
  });

  it("checks the credential before telling an unauthenticated caller an operation is not available", async () => {
    const response = await api.request("POST", "/api/v1/payments/checkouts", { credential: null, body: {} });

    expectError(response, 401, "AUTHENTICATION_REQUIRED");
  });
});

describe("service tokens", () => {
  it("lets a token with payments:read read capabilities", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["payments:read"]);

    const response = await api.request("GET", capabilities, { credential: token });

    expect(response.status).toBe(200);
    expect(response.body.data.currency).toBe("PHP");
  });

  it("refuses createCustomer with 403 INSUFFICIENT_SCOPE for a token with only payments:read", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["payments:read"]);

    const response = await api.request("POST", customers, { credential: token, body: newCustomer() });

    expectError(response, 403, "INSUFFICIENT_SCOPE");
    expect(response.body.error.message).toContain("payments:write");
  });

  it("lets a token with payments:write create a customer in its own project", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["payments:write"]);
    const body = newCustomer();

    const created = await api.request("POST", customers, { credential: token, body });

    expect(created.status).toBe(201);
    expect(created.body.data.customerReference).toBe(body.customerReference);
    const read = await api.request("GET", `${customers}/${created.body.data.customerId}`, { credential: project.testKey });
    expect(read.status).toBe(200);
  });

  it("refuses getCustomer with 403 INSUFFICIENT_SCOPE for a token with only payments:write", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["payments:write"]);

    const response = await api.request("GET", `${customers}/cus_anything123`, { credential: token });

    expectError(response, 403, "INSUFFICIENT_SCOPE");
  });

  it("refuses a payments operation with 403 INSUFFICIENT_SCOPE for a token holding only OTP scopes", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["otp:generate", "otp:verify", "otp:read"]);

    const response = await api.request("GET", capabilities, { credential: token });

    expectError(response, 403, "INSUFFICIENT_SCOPE");
  });

  it("refuses an OTP operation with 403 INSUFFICIENT_SCOPE for a token holding only payment scopes", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["payments:read", "payments:write"]);

    const response = await api.request("POST", "/api/v1/shared/otp/generate", {
      credential: token,
      body: { recipient: "+639171234567", channel: "sms" },
    });

    expectError(response, 403, "INSUFFICIENT_SCOPE");
  });

  it("accepts a token it signed itself that has not expired (the control for the forged tokens below)", async () => {
    const project = await api.newProject();
    const real = await api.serviceToken(project.projectId, ["payments:read"]);
    const now = Math.floor(Date.now() / 1000);

    const token = await signToken(
      { projectId: project.projectId, scope: "payments:read", issuedAt: now, expiresAt: now + 300, kid: decodeProtectedHeader(real).kid! },
      await platformSigningKey(),
    );
    const response = await api.request("GET", capabilities, { credential: token });

    expect(response.status).toBe(200);
  });

  it("refuses an expired token with 401 INVALID_CREDENTIALS", async () => {
    const project = await api.newProject();
    const real = await api.serviceToken(project.projectId, ["payments:read"]);
    const now = Math.floor(Date.now() / 1000);

    const token = await signToken(
      {
        projectId: project.projectId,
        scope: "payments:read",
        issuedAt: now - 3600,
        expiresAt: now - 600,
        kid: decodeProtectedHeader(real).kid!,
      },
      await platformSigningKey(),
    );
    const response = await api.request("GET", capabilities, { credential: token });

    expectError(response, 401, "INVALID_CREDENTIALS");
    expectBearerChallenge(response);
  });

  it("refuses a token signed with another ES256 key under the platform's key id with 401 INVALID_CREDENTIALS", async () => {
    const project = await api.newProject();
    const real = await api.serviceToken(project.projectId, ["payments:read"]);
    const foreign = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);

    const token = await signToken(
      { projectId: project.projectId, scope: "payments:read", issuedAt: now, expiresAt: now + 300, kid: decodeProtectedHeader(real).kid! },
      foreign.privateKey,
    );
    const response = await api.request("GET", capabilities, { credential: token });

    expectError(response, 401, "INVALID_CREDENTIALS");
  });

  it("refuses a real token whose payload was altered to widen its scopes with 401 INVALID_CREDENTIALS", async () => {
    const project = await api.newProject();
    const real = await api.serviceToken(project.projectId, ["payments:read"]);
    const [header, payload, signature] = real.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
    const widened = base64url(JSON.stringify({ ...claims, scope: "payments:read payments:write" }));

    const response = await api.request("POST", customers, {
      credential: `${header}.${widened}.${signature}`,
      body: newCustomer(),
    });

    expectError(response, 401, "INVALID_CREDENTIALS");
  });

  it("refuses a real token whose signature was removed with 401 INVALID_CREDENTIALS", async () => {
    const project = await api.newProject();
    const real = await api.serviceToken(project.projectId, ["payments:read"]);
    const [header, payload] = real.split(".");

    const response = await api.request("GET", capabilities, { credential: `${header}.${payload}.` });

    expectError(response, 401, "INVALID_CREDENTIALS");
  });
});

describe("tenancy", () => {
  it("keeps test and live apart: a customer created with the test key is 404 with the live key", async () => {
    const project = await api.newProject();
    const created = await api.request("POST", customers, { credential: project.testKey, body: newCustomer() });
    expect(created.status).toBe(201);
    const path = `${customers}/${created.body.data.customerId}`;

    const withTest = await api.request("GET", path, { credential: project.testKey });
    const withLive = await api.request("GET", path, { credential: project.liveKey });

    expect(withTest.status).toBe(200);
    expectError(withLive, 404, "RESOURCE_NOT_FOUND");
  });

  it("keeps live apart from test: a customer created with the live key is 404 with the test key", async () => {
    const project = await api.newProject();
    const created = await api.request("POST", customers, { credential: project.liveKey, body: newCustomer() });
    expect(created.status).toBe(201);

    const withTest = await api.request("GET", `${customers}/${created.body.data.customerId}`, { credential: project.testKey });

    expectError(withTest, 404, "RESOURCE_NOT_FOUND");
  });

  it("lets the same customerReference exist once in test and once in live", async () => {
    const project = await api.newProject();
    const body = newCustomer();

    const inTest = await api.request("POST", customers, { credential: project.testKey, body });
    const inLive = await api.request("POST", customers, { credential: project.liveKey, body });

    expect(inTest.status).toBe(201);
    expect(inLive.status).toBe(201);
    expect(inLive.body.data.customerId).not.toBe(inTest.body.data.customerId);
  });

  it("scopes a live service token to live data", async () => {
    const project = await api.newProject();
    const created = await api.request("POST", customers, { credential: project.liveKey, body: newCustomer() });
    const liveToken = await api.serviceToken(project.projectId, ["payments:read"], "live");
    const testToken = await api.serviceToken(project.projectId, ["payments:read"], "test");
    const path = `${customers}/${created.body.data.customerId}`;

    expect((await api.request("GET", path, { credential: liveToken })).status).toBe(200);
    expectError(await api.request("GET", path, { credential: testToken }), 404, "RESOURCE_NOT_FOUND");
  });

  it("answers 404 RESOURCE_NOT_FOUND, never 403, for another project's customer", async () => {
    const owner = await api.newProject("Owner");
    const stranger = await api.newProject("Stranger");
    const created = await api.request("POST", customers, { credential: owner.testKey, body: newCustomer() });
    const path = `${customers}/${created.body.data.customerId}`;

    const byKey = await api.request("GET", path, { credential: stranger.testKey });
    const byToken = await api.request("GET", path, {
      credential: await api.serviceToken(stranger.projectId, ["payments:read"]),
    });

    expectError(byKey, 404, "RESOURCE_NOT_FOUND");
    expectError(byToken, 404, "RESOURCE_NOT_FOUND");
  });

  it("lets two projects use the same customerReference independently", async () => {
    const first = await api.newProject();
    const second = await api.newProject();
    const body = newCustomer();

    expect((await api.request("POST", customers, { credential: first.testKey, body })).status).toBe(201);
    expect((await api.request("POST", customers, { credential: second.testKey, body })).status).toBe(201);
  });
});

describe("OTP operations", () => {
  it("refuses a project API key on generate with 403 SERVICE_TOKEN_REQUIRED", async () => {
    const project = await api.newProject();

    const response = await api.request("POST", "/api/v1/shared/otp/generate", {
      credential: project.testKey,
      body: { recipient: "+639171234567", channel: "sms" },
    });

    expectError(response, 403, "SERVICE_TOKEN_REQUIRED");
  });

  it("refuses a project API key on verify and status with 403 SERVICE_TOKEN_REQUIRED", async () => {
    const project = await api.newProject();

    const verify = await api.request("POST", "/api/v1/shared/otp/verify", {
      credential: project.liveKey,
      body: { otpId: "otp_abc", code: "123456" },
    });
    const status = await api.request("GET", "/api/v1/shared/otp/status/otp_abc", { credential: project.testKey });

    expectError(verify, 403, "SERVICE_TOKEN_REQUIRED");
    expectError(status, 403, "SERVICE_TOKEN_REQUIRED");
  });

  it("asks for a credential on generate when none is sent", async () => {
    const response = await api.request("POST", "/api/v1/shared/otp/generate", {
      credential: null,
      body: { recipient: "+639171234567", channel: "sms" },
    });

    expectError(response, 401, "AUTHENTICATION_REQUIRED");
  });
});

describe("admin API", () => {
  it("answers 401 AUTHENTICATION_REQUIRED without a credential", async () => {
    const response = await api.request("POST", "/admin/v1/projects", {
      credential: null,
      idempotencyKey: null,
      body: { name: "Nope" },
    });

    expectError(response, 401, "AUTHENTICATION_REQUIRED");
    expectBearerChallenge(response);
  });

  it.each([
    ["a test API key", () => api.platform.testApiKey],
    ["the admin key with one character changed", () => `${api.platform.adminApiKey.slice(0, -1)}#`],
  ])("answers 401 INVALID_CREDENTIALS for %s", async (_label, credential) => {
    const response = await api.request("POST", "/admin/v1/projects", {
      credential: credential(),
      idempotencyKey: null,
      body: { name: "Nope" },
    });

    expectError(response, 401, "INVALID_CREDENTIALS");
  });

  it("answers 401 INVALID_CREDENTIALS for a service token", async () => {
    const project = await api.newProject();
    const token = await api.serviceToken(project.projectId, ["payments:read", "payments:write"]);

    const response = await api.request("POST", "/admin/v1/service-tokens", {
      credential: token,
      idempotencyKey: null,
      body: { projectId: project.projectId, environment: "test", subject: "x", scopes: ["otp:read"] },
    });

    expectError(response, 401, "INVALID_CREDENTIALS");
  });

  it("refuses a project API key on every admin operation", async () => {
    const project = await api.newProject();
    const asKey = (path: string, body: unknown) =>
      api.request("POST", path, { credential: project.liveKey, idempotencyKey: null, body });

    const responses = [
      await asKey("/admin/v1/projects", { name: "Nope" }),
      await asKey(`/admin/v1/projects/${project.projectId}/api-keys`, { environment: "live" }),
      await asKey("/admin/v1/service-tokens", {
        projectId: project.projectId,
        environment: "live",
        subject: "x",
        scopes: ["payments:read"],
      }),
    ];

    for (const response of responses) expectError(response, 401, "INVALID_CREDENTIALS");
  });

  it("creates a project, an API key and a service token with the admin key", async () => {
    const project = await api.admin("POST", "/admin/v1/projects", { name: "Admin-made" });
    expect(project.status).toBe(201);
    const projectId = project.body.data.projectId as string;

    const key = await api.admin("POST", `/admin/v1/projects/${projectId}/api-keys`, { environment: "live" });
    const token = await api.admin("POST", "/admin/v1/service-tokens", {
      projectId,
      environment: "test",
      subject: "billing-service",
      scopes: ["payments:read"],
      ttlSeconds: 60,
    });

    expect(project.body.data.name).toBe("Admin-made");
    expect(key.status).toBe(201);
    expect(key.body.data.apiKey).toMatch(/^sk_live_/);
    expect(token.status).toBe(201);
    const usable = await api.request("GET", capabilities, { credential: token.body.data.accessToken });
    expect(usable.status).toBe(200);
  });

  it("answers 404 RESOURCE_NOT_FOUND when creating an API key for an unknown project", async () => {
    const response = await api.admin("POST", "/admin/v1/projects/prj_doesnotexist000/api-keys", { environment: "test" });

    expectError(response, 404, "RESOURCE_NOT_FOUND");
  });

  it("answers 404 RESOURCE_NOT_FOUND when issuing a service token for an unknown project", async () => {
    const response = await api.admin("POST", "/admin/v1/service-tokens", {
      projectId: "prj_doesnotexist000",
      environment: "test",
      subject: "x",
      scopes: ["payments:read"],
    });

    expectError(response, 404, "RESOURCE_NOT_FOUND");
  });

  it("rejects createServiceToken with an unknown scope with 400 VALIDATION_FAILED naming scopes.0", async () => {
    const project = await api.newProject();

    const response = await api.admin("POST", "/admin/v1/service-tokens", {
      projectId: project.projectId,
      environment: "test",
      subject: "x",
      scopes: ["payments:everything"],
    });

    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("scopes.0")]));
  });

  it("rejects createServiceToken with a ttlSeconds below 60 naming ttlSeconds", async () => {
    const project = await api.newProject();

    const response = await api.admin("POST", "/admin/v1/service-tokens", {
      projectId: project.projectId,
      environment: "test",
      subject: "x",
      scopes: ["payments:read"],
      ttlSeconds: 59,
    });

    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("ttlSeconds")]));
  });

  it("rejects createApiKey with an unknown environment naming environment", async () => {
    const project = await api.newProject();

    const response = await api.admin("POST", `/admin/v1/projects/${project.projectId}/api-keys`, { environment: "prod" });

    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining("environment")]));
  });
});

describe("secrets in error bodies", () => {
  it("never echo the admin key or an API key", async () => {
    const project = await api.newProject();
    const adminKey = api.platform.adminApiKey;
    const secrets = [adminKey, project.testKey, project.liveKey, adminKey.slice(4), project.testKey.slice(8)];

    const responses = await Promise.all([
      api.request("GET", capabilities, { credential: adminKey }),
      api.request("GET", capabilities, { credential: `${project.testKey}x` }),
      api.request("GET", capabilities, {
        credential: null,
        headers: { Authorization: `Basic ${project.liveKey}` },
      }),
      api.request("POST", "/admin/v1/projects", { credential: project.testKey, idempotencyKey: null, body: { name: "x" } }),
      api.request("POST", "/admin/v1/projects", { credential: `${adminKey}x`, idempotencyKey: null, body: { name: "x" } }),
      api.request("POST", "/admin/v1/projects", {
        credential: null,
        headers: { Authorization: `Token ${adminKey}` },
        idempotencyKey: null,
        body: { name: "x" },
      }),
      api.request("POST", "/api/v1/shared/otp/generate", {
        credential: project.liveKey,
        body: { recipient: "+639171234567", channel: "sms" },
      }),
      api.request("POST", customers, { credential: project.testKey, body: { customerReference: project.testKey } }),
      api.admin("POST", "/admin/v1/service-tokens", {
        projectId: project.projectId,
        environment: "test",
        subject: "x",
        scopes: [adminKey],
      }),
    ]);

    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      const text = JSON.stringify(response.body);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
