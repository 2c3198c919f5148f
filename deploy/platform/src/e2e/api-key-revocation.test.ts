import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "@bayad/gateway";
import { eventually, expectError, startGatewayReplica, startTestPlatform, type TestPlatform } from "../test-support/harness.js";

/** The `bayad` CLI as operators run it (`npm run admin`): the gateway package's built bin. */
const cliPath = createRequire(import.meta.url).resolve("@bayad/gateway").replace(/index\.js$/, "cli/main.js");
const run = promisify(execFile);

describe("API key listing and revocation, with two gateway replicas sharing one store", () => {
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

  const capabilitiesOn = (base: string, apiKey: string) =>
    fetch(`${base}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${apiKey}` } }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { error?: { code: string } },
    }));

  it("lists a project's keys by prefix and last 4 characters, never the secret, with their last use", async () => {
    const { projectId, testKey, liveKey } = await api.newProject();

    const before = await api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`);

    expect(before.status).toBe(200);
    expect(before.body.data).toHaveLength(2);
    const byPrefix = new Map(before.body.data.map((key: { keyPrefix: string }) => [key.keyPrefix, key]));
    expect(byPrefix.get(testKey.slice(0, 12))).toMatchObject({ environment: "test", keyLast4: testKey.slice(-4) });
    expect(byPrefix.get(liveKey.slice(0, 12))).toMatchObject({ environment: "live", keyLast4: liveKey.slice(-4) });
    const text = JSON.stringify(before.body);
    for (const key of [testKey, liveKey]) expect(text).not.toContain(key.slice(12, -4));
    expect(before.body.data.some((key: { lastUsedAt?: string }) => key.lastUsedAt)).toBe(false);

    expect((await api.request("GET", "/api/v1/payments/capabilities", { credential: testKey })).status).toBe(200);

    const used = await eventually(async () => {
      const listed = await api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`);
      return listed.body.data.find((key: { lastUsedAt?: string }) => key.lastUsedAt);
    });
    expect(used.keyPrefix).toBe(testKey.slice(0, 12));
  });

  it("refuses a key revoked on one replica on the other within a second, and keeps the project's other keys", async () => {
    const { projectId, testKey, liveKey } = await api.newProject();
    // The second replica has verified (and cached) the key before it is revoked.
    expect((await capabilitiesOn(second.url, testKey)).status).toBe(200);
    const listed = await api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`);
    const keyId = listed.body.data.find((key: { keyPrefix: string }) => key.keyPrefix === testKey.slice(0, 12)).keyId as string;

    const revoked = await api.admin("POST", `/admin/v1/projects/${projectId}/api-keys/${keyId}/revoke`);

    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ keyId, environment: "test", revokedAt: expect.any(String) });
    expectError(await api.request("GET", "/api/v1/payments/capabilities", { credential: testKey }), 401, "INVALID_CREDENTIALS");
    const refused = await eventually(async () => {
      const response = await capabilitiesOn(second.url, testKey);
      return response.status === 401 ? response : undefined;
    }, 1_000);
    expect(refused.body.error?.code).toBe("INVALID_CREDENTIALS");
    expect((await capabilitiesOn(second.url, liveKey)).status).toBe(200);
  });

  it("answers a second revocation with the key unchanged, and 404 for a key the project does not have", async () => {
    const one = await api.newProject();
    const other = await api.newProject();
    const [key] = (await api.admin("GET", `/admin/v1/projects/${one.projectId}/api-keys`)).body.data;
    const path = `/admin/v1/projects/${one.projectId}/api-keys/${key.keyId}/revoke`;

    const first = await api.admin("POST", path);
    const again = await api.admin("POST", path);

    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expectError(await api.admin("POST", `/admin/v1/projects/${other.projectId}/api-keys/${key.keyId}/revoke`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.admin("POST", `/admin/v1/projects/${one.projectId}/api-keys/key_unknown0/revoke`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.admin("GET", "/admin/v1/projects/prj_unknown0/api-keys"), 404, "RESOURCE_NOT_FOUND");
    const [untouched] = (await api.admin("GET", `/admin/v1/projects/${other.projectId}/api-keys`)).body.data;
    expect(untouched.revokedAt).toBeUndefined();
  });

  it("refuses a revocation with a body or without the admin key, and revokes nothing", async () => {
    const { projectId, testKey } = await api.newProject();
    const [key] = (await api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`)).body.data;
    const path = `/admin/v1/projects/${projectId}/api-keys/${key.keyId}/revoke`;

    expectError(await api.admin("POST", path, { revoke: true }), 400, "VALIDATION_FAILED");
    expectError(await api.request("POST", path, { credential: testKey, idempotencyKey: null }), 401, "INVALID_CREDENTIALS");

    expect((await api.admin("GET", `/admin/v1/projects/${projectId}/api-keys`)).body.data.every((k: { revokedAt?: string }) => !k.revokedAt)).toBe(true);
    expect((await capabilitiesOn(second.url, testKey)).status).toBe(200);
  });

  it("lists and revokes through the bayad CLI", async () => {
    const { projectId, testKey } = await api.newProject();
    const env = { ...process.env, BAYAD_URL: api.platform.gatewayUrl, ADMIN_API_KEY: api.platform.adminApiKey };
    const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [cliPath, ...args], { env })).stdout);

    const listed = await cli("api-keys", "list", "--project", projectId);
    const key = listed.find((k: { keyPrefix: string }) => k.keyPrefix === testKey.slice(0, 12));
    const revoked = await cli("api-keys", "revoke", key.keyId, "--project", projectId);

    expect(revoked).toMatchObject({ keyId: key.keyId, revokedAt: expect.any(String) });
    expectError(await api.request("GET", "/api/v1/payments/capabilities", { credential: testKey }), 401, "INVALID_CREDENTIALS");
  });
});
