import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, randomBase62 } from "@bayad/kit";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { startPlatform, type RunningPlatform } from "../platform.js";
import { apiClientFor, expectError, startTestPlatform, testLogger, testPlatformEnv, type TestPlatform } from "../test-support/harness.js";

/**
 * Provider accounts through the admin API over real HTTP: the gateway, the payments service and
 * its store, the PayMongo adapter, and the PayMongo simulator standing in for PayMongo
 * (PAYMONGO_API_BASE). PUBLIC_URL is unset, as under `npm start`: webhooks go to the gateway's own URL.
 */

const cliPath = createRequire(import.meta.url).resolve("@bayad/gateway").replace(/index\.js$/, "cli/main.js");
const run = promisify(execFile);

/** A key of its own per test: each key is an account of its own at the simulator. */
const freshKey = (mode: "test" | "live") => `sk_${mode}_${randomBase62(24)}`;

interface SimulatedWebhook {
  id: string;
  attributes: { url: string; events: string[]; status: string; secret_key: string };
}

let simulator: PaymongoSimulator;
let api: TestPlatform;
/** Every log line the platform wrote, at debug level, as the production logger writes it. */
const logLines: string[] = [];

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
  const logger = createLogger(
    "test",
    "debug",
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString("utf8"));
        done();
      },
    }),
  );
  api = await startTestPlatform({ PAYMONGO_API_BASE: simulator.url }, { logger });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await simulator?.close();
});

const accountPath = (projectId: string, environment: string) => `/admin/v1/projects/${projectId}/provider-accounts/${environment}`;
const putAccount = (projectId: string, environment: string, secretKey: string, paymentMethodTypes = ["qrph", "gcash", "card"]) =>
  api.admin("PUT", accountPath(projectId, environment), { provider: "paymongo", secretKey, paymentMethodTypes });
const storedAccounts = () => api.platform.stores.payments.collection({ name: "provider_accounts" }).find({});
const webhookAt = (id: string) => simulator.find(id) as SimulatedWebhook | undefined;
const webhooksOf = async (secretKey: string) => {
  const response = await fetch(`${simulator.url}/v1/webhooks`, {
    headers: { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` },
  });
  return ((await response.json()) as { data: SimulatedWebhook[] }).data;
};

describe("provider accounts through the admin API", () => {
  it("puts a live account: 201, the key checked, the webhook registered at the gateway's URL, no secret in the answer", async () => {
    const { projectId } = await api.newProject();
    const secretKey = freshKey("live");

    const response = await putAccount(projectId, "live", secretKey, ["qrph", "gcash", "qrph"]);

    expect(response.status).toBe(201);
    const account = response.body.data;
    expect(account).toMatchObject({
      providerAccountId: expect.stringMatching(/^pa_[A-Za-z0-9]{24}$/),
      projectId,
      environment: "live",
      provider: "paymongo",
      secretKeyLast4: secretKey.slice(-4),
      paymentMethodTypes: ["qrph", "gcash"],
      webhook: { status: "enabled", url: `${api.platform.gatewayUrl}/provider-webhooks/paymongo/${account.providerAccountId}` },
    });
    const webhook = webhookAt(account.webhook.webhookId)!;
    expect(webhook.attributes).toMatchObject({ url: account.webhook.url, status: "enabled" });
    expect(webhook.attributes.events).toEqual(expect.arrayContaining(["checkout_session.payment.paid", "payment.paid", "payment.refunded"]));
    const answered = JSON.stringify(response.body);
    expect(answered).not.toContain(secretKey);
    expect(answered).not.toContain(webhook.attributes.secret_key);

    const got = await api.admin("GET", accountPath(projectId, "live"));
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(account);
  });

  it("keeps the secret key and the webhook secret sealed in the payments store", async () => {
    const { projectId } = await api.newProject();
    const secretKey = freshKey("test");
    const account = (await putAccount(projectId, "test", secretKey)).body.data;
    const webhookSecret = webhookAt(account.webhook.webhookId)!.attributes.secret_key;

    const stored = (await storedAccounts()).find((record) => record._id === account.providerAccountId);
    expect(stored).toBeDefined();
    const text = JSON.stringify(stored);
    expect(text).not.toContain(secretKey.slice("sk_test_".length));
    expect(text).not.toContain(webhookSecret.slice("whsk_".length));
  });

  it("refuses a key of the other mode with 400 naming secretKey, and writes and registers nothing", async () => {
    const { projectId } = await api.newProject();
    const testKey = freshKey("test");
    const liveKey = freshKey("live");
    const before = (await storedAccounts()).length;

    const asLive = await putAccount(projectId, "live", testKey);
    const asTest = await putAccount(projectId, "test", liveKey);

    for (const response of [asLive, asTest]) {
      expectError(response, 400, "VALIDATION_FAILED");
      expect(response.body.error.details).toEqual([expect.stringMatching(/^secretKey: /)]);
    }
    expect(JSON.stringify([asLive.body, asTest.body])).not.toContain(testKey.slice(8));
    expect(JSON.stringify([asLive.body, asTest.body])).not.toContain(liveKey.slice(8));
    expect((await storedAccounts()).length).toBe(before);
    expect(await webhooksOf(testKey)).toEqual([]);
    expect(await webhooksOf(liveKey)).toEqual([]);
    expectError(await api.admin("GET", accountPath(projectId, "live")), 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses a key PayMongo refuses with 400 naming secretKey, and writes nothing", async () => {
    const { projectId } = await api.newProject();
    const before = (await storedAccounts()).length;

    // Well-formed for Bayad, refused by the simulator (its keys have 16 characters or more after the prefix).
    const response = await putAccount(projectId, "test", "sk_test_Ab3dE5gH");

    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual([expect.stringMatching(/^secretKey: /)]);
    expect((await storedAccounts()).length).toBe(before);
    expectError(await api.admin("GET", accountPath(projectId, "test")), 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses a body the document does not allow, naming the field", async () => {
    const { projectId } = await api.newProject();
    const noTypes = await putAccount(projectId, "test", freshKey("test"), []);
    expectError(noTypes, 400, "VALIDATION_FAILED");
    expect(noTypes.body.error.details.join("\n")).toMatch(/paymentMethodTypes/);
    const otherProvider = await api.admin("PUT", accountPath(projectId, "test"), { provider: "stripe", secretKey: freshKey("test"), paymentMethodTypes: ["card"] });
    expectError(otherProvider, 400, "VALIDATION_FAILED");
    expect(otherProvider.body.error.details.join("\n")).toMatch(/provider/);
    expectError(await api.admin("GET", accountPath(projectId, "staging")), 400, "VALIDATION_FAILED");
  });

  it("puts again in place: 200, the same providerAccountId, the new key, a fresh webhook, the previous one disabled", async () => {
    const { projectId } = await api.newProject();
    const first = (await putAccount(projectId, "test", freshKey("test"), ["qrph"])).body.data;
    const nextKey = freshKey("test");

    const again = await putAccount(projectId, "test", nextKey, ["card", "gcash"]);

    expect(again.status).toBe(200);
    const account = again.body.data;
    expect(account).toMatchObject({
      providerAccountId: first.providerAccountId,
      secretKeyLast4: nextKey.slice(-4),
      paymentMethodTypes: ["card", "gcash"],
      createdAt: first.createdAt,
      webhook: { status: "enabled", url: first.webhook.url },
    });
    expect(account.webhook.webhookId).not.toBe(first.webhook.webhookId);
    expect(webhookAt(first.webhook.webhookId)!.attributes.status).toBe("disabled");
    expect(webhookAt(account.webhook.webhookId)!.attributes.status).toBe("enabled");
  });

  it("deletes the account: 200 with what was removed, its webhook disabled at PayMongo, then 404", async () => {
    const { projectId } = await api.newProject();
    const account = (await putAccount(projectId, "live", freshKey("live"))).body.data;

    const removed = await api.admin("DELETE", accountPath(projectId, "live"));

    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual(account);
    expect(webhookAt(account.webhook.webhookId)!.attributes.status).toBe("disabled");
    expectError(await api.admin("GET", accountPath(projectId, "live")), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.admin("DELETE", accountPath(projectId, "live")), 404, "RESOURCE_NOT_FOUND");
  });

  it("answers 404 for a project that does not exist, and asks PayMongo nothing", async () => {
    const secretKey = freshKey("test");
    expectError(await putAccount("prj_doesnotexist", "test", secretKey), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.admin("GET", accountPath("prj_doesnotexist", "test")), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.admin("DELETE", accountPath("prj_doesnotexist", "test")), 404, "RESOURCE_NOT_FOUND");
    expect(await webhooksOf(secretKey)).toEqual([]);
  });

  it("requires the admin key", async () => {
    const { projectId, liveKey } = await api.newProject();
    const response = await api.request("GET", accountPath(projectId, "live"), { credential: liveKey });
    expect(response.status).toBe(401);
  });

  it("is driven by the bayad CLI: put with the key from a file, get and delete, each with --json", async () => {
    const { projectId } = await api.newProject();
    const secretKey = freshKey("live");
    const dir = mkdtempSync(join(tmpdir(), "bayad-provider-key-"));
    try {
      const keyFile = join(dir, "paymongo.key");
      writeFileSync(keyFile, `${secretKey}\n`, { mode: 0o600 });
      const env = { ...process.env, BAYAD_URL: api.platform.gatewayUrl, ADMIN_API_KEY: api.platform.adminApiKey };
      const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [cliPath, "provider-accounts", ...args, "--json"], { env })).stdout);

      const put = await cli("put", projectId, "live", "--secret-key-file", keyFile, "--payment-method-types", "qrph,card");
      expect(put).toMatchObject({ projectId, environment: "live", secretKeyLast4: secretKey.slice(-4), paymentMethodTypes: ["qrph", "card"] });
      expect(JSON.stringify(put)).not.toContain(secretKey);
      expect(await cli("get", projectId, "live")).toEqual(put);
      expect(await cli("delete", projectId, "live")).toEqual(put);
      await expect(run(process.execPath, [cliPath, "provider-accounts", "get", projectId, "live", "--json"], { env })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining("RESOURCE_NOT_FOUND"),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never writes a secret key or a webhook secret to the log", async () => {
    const { projectId } = await api.newProject();
    const secretKey = freshKey("live");
    const account = (await putAccount(projectId, "live", secretKey)).body.data;
    const webhookSecret = webhookAt(account.webhook.webhookId)!.attributes.secret_key;
    await putAccount(projectId, "live", freshKey("test"));
    await putAccount(projectId, "test", "sk_test_Ab3dE5gH");
    await api.admin("DELETE", accountPath(projectId, "live"));

    expect(logLines.length).toBeGreaterThan(0);
    const logs = logLines.join("");
    expect(logs).toContain(account.providerAccountId);
    expect(logs).not.toContain(secretKey.slice(8));
    expect(logs).not.toContain(webhookSecret.slice(5));
    expect(logs).not.toContain("Ab3dE5gH");
  });
});

describe("provider accounts with the services on a worker thread, as npm start runs them", () => {
  let platform: RunningPlatform;

  beforeAll(async () => {
    platform = await startPlatform({ env: testPlatformEnv({ PAYMONGO_API_BASE: simulator.url }), logger: testLogger() });
  }, 60_000);
  afterAll(async () => {
    await platform?.close();
  });

  it("registers the webhook at the gateway's own URL, with SECRETS_KEY drawn for the run", async () => {
    const client = apiClientFor(platform);
    const { projectId } = await client.newProject();
    const response = await client.admin("PUT", accountPath(projectId, "test"), {
      provider: "paymongo",
      secretKey: freshKey("test"),
      paymentMethodTypes: ["qrph"],
    });
    expect(response.status).toBe(201);
    expect(response.body.data.webhook.url).toBe(`${platform.gatewayUrl}/provider-webhooks/paymongo/${response.body.data.providerAccountId}`);
    expect((await client.admin("GET", accountPath(projectId, "test"))).body.data).toEqual(response.body.data);
  });
});
