import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGatewayConfig, type RunningGateway } from "@bayad/gateway";
import { apiClientFor, expectError, startGatewayReplica, startTestPlatform, unique, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

/**
 * The gateway's rate limits over real HTTP: per credential and per project and environment,
 * reads and writes apart, with the IETF draft's RateLimit-Policy and RateLimit fields on every
 * answer, 429 RATE_LIMITED with Retry-After past a limit, and one count across replicas sharing
 * the gateway's store. Windows of a minute, so nothing here depends on timing.
 */
const limits = {
  RATE_LIMIT_CREDENTIAL_WRITES: "3",
  RATE_LIMIT_CREDENTIAL_WRITES_WINDOW_SECONDS: "60",
  RATE_LIMIT_PROJECT_WRITES: "5",
  RATE_LIMIT_PROJECT_WRITES_WINDOW_SECONDS: "60",
  RATE_LIMIT_CREDENTIAL_READS: "4",
  RATE_LIMIT_CREDENTIAL_READS_WINDOW_SECONDS: "60",
  RATE_LIMIT_PROJECT_READS: "1000",
  RATE_LIMIT_PROJECT_READS_WINDOW_SECONDS: "60",
};

const writesPolicy = '"credential-writes";q=3;w=60, "project-writes";q=5;w=60';
const readsPolicy = '"credential-reads";q=4;w=60, "project-reads";q=1000;w=60';

let api: TestPlatform;

beforeAll(async () => {
  api = await startTestPlatform(limits);
});

afterAll(async () => {
  await api?.close();
});

/** The RateLimit field as policy → {r, t}, checking its structured-field form. */
function rateLimitOf(response: ApiResponse): Record<string, { r: number; t: number }> {
  const field = response.headers.get("RateLimit") ?? "";
  const items = field.split(", ");
  const parsed: Record<string, { r: number; t: number }> = {};
  for (const item of items) {
    const match = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(item);
    if (!match) throw new Error(`RateLimit item ${JSON.stringify(item)} is not "<policy>";r=<n>;t=<n> (field: ${field})`);
    parsed[match[1]!] = { r: Number(match[2]), t: Number(match[3]) };
  }
  return parsed;
}

const remaining = (response: ApiResponse) => Object.fromEntries(Object.entries(rateLimitOf(response)).map(([policy, { r }]) => [policy, r]));

type ApiClient = Pick<TestPlatform, "request">;

function createCustomer(credential: string, customerReference = unique("user"), client: ApiClient = api) {
  return client.request("POST", "/api/v1/payments/customers", { credential, body: { customerReference, email: "ana@example.ph" } });
}

/** The answer past a limit: 429 RATE_LIMITED, Retry-After in whole seconds within the window, both fields. */
function expectRateLimited(response: ApiResponse, policy: string): void {
  expectError(response, 429, "RATE_LIMITED");
  const retryAfter = response.headers.get("Retry-After");
  expect(retryAfter).toMatch(/^\d+$/);
  // A window of 60 s counted in 2-second slices.
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(62);
  expect(response.headers.get("RateLimit-Policy")).toBe(policy);
}

describe("rate limits", () => {
  it("refuses a credential's write past its limit with 429, Retry-After and the RateLimit fields, which every 2xx carries too", async () => {
    const { testKey } = await api.newProject();
    for (let i = 1; i <= 3; i++) {
      const created = await createCustomer(testKey);
      expect(created.status).toBe(201);
      expect(created.headers.get("RateLimit-Policy")).toBe(writesPolicy);
      expect(remaining(created)).toEqual({ "credential-writes": 3 - i, "project-writes": 5 - i });
      expect(rateLimitOf(created)["credential-writes"]!.t).toBeLessThanOrEqual(62);
    }

    const reference = unique("refused");
    const refused = await createCustomer(testKey, reference);
    expectRateLimited(refused, writesPolicy);
    // Refused by the credential's limit and counted by none: the project's is where it was.
    expect(remaining(refused)).toEqual({ "credential-writes": 0, "project-writes": 2 });
    expect(rateLimitOf(refused)["credential-writes"]!.t).toBe(Number(refused.headers.get("Retry-After")));
    expect(await api.platform.stores.payments.collection({ name: "customers" }).count({ customerReference: reference })).toBe(0);
  });

  it("counts reads apart from writes", async () => {
    const { testKey } = await api.newProject();
    for (let i = 0; i < 3; i++) expect((await createCustomer(testKey)).status).toBe(201);
    expectRateLimited(await createCustomer(testKey), writesPolicy);

    // The writes are used up; the reads are untouched.
    for (let i = 1; i <= 4; i++) {
      const read = await api.request("GET", "/api/v1/payments/capabilities", { credential: testKey });
      expect(read.status).toBe(200);
      expect(read.headers.get("RateLimit-Policy")).toBe(readsPolicy);
      expect(remaining(read)).toEqual({ "credential-reads": 4 - i, "project-reads": 1000 - i });
    }
    const refused = await api.request("GET", "/api/v1/payments/capabilities", { credential: testKey });
    expectRateLimited(refused, readsPolicy);
    expect(remaining(refused)).toEqual({ "credential-reads": 0, "project-reads": 996 });
  });

  it("holds a project's limit across its credentials, and another project's exhaustion limits no one else", async () => {
    const first = await api.newProject();
    const other = await api.newProject();
    const secondKey = (await api.admin("POST", `/admin/v1/projects/${first.projectId}/api-keys`, { environment: "test" })).body.data.apiKey as string;

    for (let i = 0; i < 3; i++) expect((await createCustomer(first.testKey)).status).toBe(201);
    expect((await createCustomer(secondKey)).status).toBe(201);
    expect((await createCustomer(secondKey)).status).toBe(201);
    // The second key has used 2 of its 3, but the project has used its 5.
    const refused = await createCustomer(secondKey);
    expectRateLimited(refused, writesPolicy);
    expect(remaining(refused)).toEqual({ "credential-writes": 1, "project-writes": 0 });

    const theirs = await createCustomer(other.testKey);
    expect(theirs.status).toBe(201);
    expect(remaining(theirs)).toEqual({ "credential-writes": 2, "project-writes": 4 });
  });

  it("counts a service token by its subject within its project", async () => {
    const { projectId } = await api.newProject();
    const token = await api.serviceToken(projectId, ["payments:read"]);
    for (let i = 0; i < 4; i++) expect((await api.request("GET", "/api/v1/payments/capabilities", { credential: token })).status).toBe(200);
    expectRateLimited(await api.request("GET", "/api/v1/payments/capabilities", { credential: token }), readsPolicy);
    // Another subject of the same project has its own credential limit.
    const other = await api.admin("POST", "/admin/v1/service-tokens", { projectId, environment: "test", subject: "another-service", scopes: ["payments:read"], ttlSeconds: 600 });
    expect((await api.request("GET", "/api/v1/payments/capabilities", { credential: other.body.data.accessToken })).status).toBe(200);
  });

  it("leaves admin and health routes unlimited, without RateLimit fields", async () => {
    for (let i = 0; i < 6; i++) {
      const created = await api.admin("POST", "/admin/v1/projects", { name: "Unlimited" });
      expect(created.status).toBe(201);
      expect(created.headers.get("RateLimit-Policy")).toBeNull();
    }
    const health = await api.request("GET", "/healthz", { credential: null });
    expect(health.status).toBe(200);
    expect(health.headers.get("RateLimit")).toBeNull();
  });
});

describe("rate limits across two gateway replicas sharing one store", () => {
  let second: RunningGateway;

  beforeAll(async () => {
    second = await startGatewayReplica(api.platform);
  });

  afterAll(async () => {
    await second?.close();
  });

  it("count one credential's calls once, whichever replica they reach", async () => {
    const secondClient = apiClientFor({ ...api.platform, gatewayUrl: second.url });
    const { testKey } = await api.newProject();
    for (const client of [api, secondClient, api]) expect((await createCustomer(testKey, unique("user"), client)).status).toBe(201);
    // Three calls through two replicas used up the credential's 3: both refuse the next.
    expectRateLimited(await createCustomer(testKey, unique("user"), secondClient), writesPolicy);
    expectRateLimited(await createCustomer(testKey), writesPolicy);
  });
});

describe("rate-limit configuration", () => {
  it("defaults to the documented limits: a second, 100 reads and 50 writes per credential, 200 and 100 per project", () => {
    const perSecond = (limit: number) => ({ limit, windowSeconds: 1 });
    expect(readGatewayConfig({}).rateLimits).toEqual({
      credential: { reads: perSecond(100), writes: perSecond(50) },
      project: { reads: perSecond(200), writes: perSecond(100) },
    });
  });

  it("refuses a limit below 1 or a window over an hour, naming the variable", () => {
    expect(() => readGatewayConfig({ RATE_LIMIT_PROJECT_WRITES: "0" })).toThrow(/^RATE_LIMIT_PROJECT_WRITES /);
    expect(() => readGatewayConfig({ RATE_LIMIT_CREDENTIAL_READS_WINDOW_SECONDS: "3601" })).toThrow(/^RATE_LIMIT_CREDENTIAL_READS_WINDOW_SECONDS /);
  });
});
