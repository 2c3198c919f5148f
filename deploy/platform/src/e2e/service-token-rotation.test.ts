import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { readGatewayConfig, signingKeysCollection, startGateway, type RunningGateway } from "@bayad/gateway";
import { eventually, startGatewayReplica, startTestPlatform, testLogger, type TestPlatform } from "../test-support/harness.js";

const day = 86_400_000;
/** The `kid` of a token's (unverified) header. */
const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8")) as { kid?: string }).kid;

async function publishedKids(base: string): Promise<string[]> {
  const response = await fetch(`${base}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
}

function paymentsReadOn(base: string, token: string) {
  return fetch(`${base}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${token}` } }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as { error?: { code: string } },
  }));
}

describe("the development token issuer's signing keys, with two gateway replicas sharing one store", () => {
  let api: TestPlatform;
  let second: RunningGateway;
  const adminOn = (base: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${api.platform.adminApiKey}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  const tokenFrom = async (base: string) => {
    const response = await adminOn(base, "POST", "/admin/v1/service-tokens", {
      projectId: api.platform.projectId,
      environment: "test",
      subject: "rotation-test",
      scopes: ["payments:read"],
      ttlSeconds: 600,
    });
    expect(response.status).toBe(201);
    return response.body.data.accessToken as string;
  };

  beforeAll(async () => {
    api = await startTestPlatform();
    second = await startGatewayReplica(api.platform);
  });
  afterAll(async () => {
    await second.close();
    await api.close();
  });

  it("keeps a token signed before a rotation valid on both replicas, and signs with the new key on both", async () => {
    const before = await tokenFrom(api.platform.gatewayUrl);

    const rotated = await api.admin("POST", "/admin/v1/signing-keys/rotate");

    expect(rotated.status).toBe(200);
    const [signing, previous] = rotated.body.data.keys;
    expect(previous).toMatchObject({ kid: kidOf(before), retiredAt: expect.any(String) });
    expect(Date.parse(previous.publishedUntil) - Date.parse(previous.retiredAt)).toBe(day);
    expect(signing.kid).not.toBe(previous.kid);
    for (const base of [api.platform.gatewayUrl, second.url]) {
      expect((await paymentsReadOn(base, before)).status).toBe(200);
      // Each replica reads the store's signing key as it issues.
      const after = await tokenFrom(base);
      expect(kidOf(after)).toBe(signing.kid);
    }
    const fromFirst = await tokenFrom(api.platform.gatewayUrl);
    // The second replica learns the new key from the store when a token names it.
    const accepted = await eventually(async () => {
      const response = await paymentsReadOn(second.url, fromFirst);
      return response.status === 200 ? response : undefined;
    });
    expect(accepted.status).toBe(200);
    for (const base of [api.platform.gatewayUrl, second.url]) {
      expect(await publishedKids(base)).toEqual(expect.arrayContaining([signing.kid, previous.kid]));
    }
  });

  it("leaves the replicas one signing key when both rotate at once", async () => {
    const [one, two] = await Promise.all([
      adminOn(api.platform.gatewayUrl, "POST", "/admin/v1/signing-keys/rotate"),
      adminOn(second.url, "POST", "/admin/v1/signing-keys/rotate"),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);

    const kids = [kidOf(await tokenFrom(api.platform.gatewayUrl)), kidOf(await tokenFrom(second.url))];

    const [record] = await api.platform.stores.gateway.collection<{ _id: string; keys: { kid: string }[] }>(signingKeysCollection).find({});
    expect(kids).toEqual([record!.keys[0]!.kid, record!.keys[0]!.kid]);
  });

  it("stores no private key material in clear", async () => {
    await api.admin("POST", "/admin/v1/signing-keys/rotate");

    const records = await api.platform.stores.gateway.collection(signingKeysCollection).find({});

    const fields: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object" && !(value instanceof Date)) {
        for (const [name, inner] of Object.entries(value)) {
          fields.push(name);
          walk(inner);
        }
      }
    };
    walk(records);
    expect(fields).toContain("sealedPrivateJwk");
    for (const privateField of ["d", "p", "q", "dp", "dq", "qi", "k", "privateJwk"]) expect(fields).not.toContain(privateField);
  });

  it("is switched off by the gateway's own default, and on in the one-process launcher", async () => {
    expect(readGatewayConfig({}).tokens.devIssuer).toBe(false);
    expect(api.platform.config.tokens.devIssuer).toBe(true);
  });
});

describe("a replaced signing key, once its tokens have all expired", () => {
  let api: TestPlatform;
  let gateway: RunningGateway;
  let store: Store;
  let offsetMs = 0;

  beforeAll(async () => {
    api = await startTestPlatform();
    // A gateway of its own (own store, moved clock), so the shared replicas' keys are not touched.
    gateway = await startGateway({
      config: { ...api.platform.config, port: 0 },
      store: (store = createEmbeddedStore()),
      services: { payments: api.platform.services.payments.url },
      logger: testLogger(),
      tokenIssuerClock: () => new Date(Date.now() + offsetMs),
    });
  });
  afterAll(async () => {
    await gateway.close();
    await store.close();
    await api.close();
  });

  const admin = (path: string, body?: unknown) =>
    fetch(`${gateway.url}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${api.platform.adminApiKey}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  const issue = async (projectId: string) =>
    (await admin("/admin/v1/service-tokens", { projectId, environment: "test", subject: "svc", scopes: ["payments:read"], ttlSeconds: 600 })).body
      .data.accessToken as string;

  it("leaves the JWKS and no longer verifies, and the signing key rotates by itself after DEV_TOKEN_KEY_ROTATION_HOURS", async () => {
    const project = await admin("/admin/v1/projects", { name: "Clocked" });
    const projectId = project.body.data.projectId as string;
    const old = await issue(projectId);
    const rotated = await admin("/admin/v1/signing-keys/rotate");
    const current = rotated.body.data.keys[0].kid as string;
    expect((await paymentsReadOn(gateway.url, old)).status).toBe(200);

    offsetMs = day - 60_000;
    expect(await publishedKids(gateway.url)).toContain(kidOf(old));
    offsetMs = day + 1_000;

    expect(await publishedKids(gateway.url)).not.toContain(kidOf(old));
    const refused = await paymentsReadOn(gateway.url, old);
    expect(refused.status).toBe(401);
    expect(refused.body.error?.code).toBe("INVALID_CREDENTIALS");
    // The key that replaced it has signed for a day (the default rotation period): the next
    // token is signed by a new key, and the replaced one is still published.
    const next = await issue(projectId);
    expect(kidOf(next)).not.toBe(current);
    expect(await publishedKids(gateway.url)).toEqual([kidOf(next), current]);
  });
});
