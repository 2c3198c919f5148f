import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { toJsonString } from "@bufbuild/protobuf";
import { ProviderAccountSchema, ProviderAccountsService, ProviderWebhookStatus } from "@bayad/proto";
import { Writable } from "node:stream";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import { createLogger, fromConnectError, openSealed, parseKeyRing, randomBase62, sealedKeyId, type RunningServer } from "@bayad/kit";
import { StoreNotWritableError, type Store } from "@bayad/store";
import { createTestStore, fillDisk, mountSmallTmpfs } from "@bayad/store/testing";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { openProviderSecretKey, openProviderWebhookSecret, providerSecretPurposes } from "@bayad/provider";
import { startPaymentsServer } from "../server.js";
import { readPaymentsConfig } from "../config.js";
import type { ProviderAccountRecord } from "./provider-account.js";

const SECRETS_KEY = "provider-accounts-test-secrets-key-0123456789";
const PUBLIC_URL = "https://pay.bayad.example.ph";
/** A key of its own for each test: each key is an account of its own at the simulator, which outlives the tests. */
const freshKey = (mode: "test" | "live") => `sk_${mode}_${randomBase62(24)}`;

interface SimulatedWebhook {
  id: string;
  attributes: { url: string; events: string[]; status: string; secret_key: string };
}

/** The provider accounts service over gRPC (Connect's gRPC transport on HTTP/2), in front of the PayMongo simulator. */
describe("ProviderAccountsService over gRPC against the PayMongo simulator", () => {
  let simulator: PaymongoSimulator;
  let store: Store;
  let server: RunningServer;
  let client: Client<typeof ProviderAccountsService>;

  /** Every line the service logged, at debug level, as the production logger writes it. */
  let logLines: string[] = [];
  const start = async (env: Record<string, string>, storePath?: string) => {
    store = createTestStore({ ...(storePath ? { path: storePath } : {}) });
    logLines = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString("utf8"));
        done();
      },
    });
    server = await startPaymentsServer({
      store,
      config: readPaymentsConfig({ PAYMONGO_API_BASE: simulator.url, PUBLIC_URL, ...env }),
      logger: createLogger("test", "debug", sink),
    });
    client = createClient(ProviderAccountsService, createGrpcTransport({ baseUrl: server.url }));
  };
  const stored = () => store.collection<ProviderAccountRecord>({ name: "provider_accounts" }).find({});
  const webhook = (id: string) => simulator.find(id) as SimulatedWebhook | undefined;
  /** What the simulator holds for a key: its webhooks, as PayMongo lists them. */
  const webhooksOf = async (secretKey: string) => {
    const response = await fetch(`${simulator.url}/v1/webhooks`, {
      headers: { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` },
    });
    return ((await response.json()) as { data: SimulatedWebhook[] }).data;
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected the call to be refused");
      },
      (error: unknown) => fromConnectError(error),
    );
  const put = (environment: string, secretKey: string, paymentMethodTypes = ["qrph", "gcash"], projectId = "prj_shop1") =>
    client.putProviderAccount({ projectId, environment, provider: "paymongo", secretKey, paymentMethodTypes });

  beforeAll(async () => {
    simulator = await startPaymongoSimulator();
  });
  afterAll(async () => {
    await simulator.close();
  });
  afterEach(async () => {
    await server?.close();
    await store?.close();
  });

  it("puts an account: checks the key, registers the webhook at PUBLIC_URL for the account, answers without secrets", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    const response = await put("test", testKey, ["qrph", "gcash", "qrph", "card"]);
    const account = response.providerAccount!;
    expect(response.created).toBe(true);
    expect(account.providerAccountId).toMatch(/^pa_[A-Za-z0-9]{24}$/);
    expect(account).toMatchObject({ projectId: "prj_shop1", environment: "test", provider: "paymongo", secretKeyLast4: testKey.slice(-4) });
    expect(account.paymentMethodTypes).toEqual(["qrph", "gcash", "card"]);
    expect(account.webhook?.status).toBe(ProviderWebhookStatus.ENABLED);
    expect(account.webhook?.url).toBe(`${PUBLIC_URL}/provider-webhooks/paymongo/${account.providerAccountId}`);

    const registered = webhook(account.webhook!.webhookId)!;
    expect(registered.attributes.url).toBe(account.webhook!.url);
    expect(registered.attributes.status).toBe("enabled");
    expect(registered.attributes.events).toEqual(
      expect.arrayContaining(["checkout_session.payment.paid", "payment.paid", "payment.failed", "payment.refunded", "payment.refund.updated", "link.payment.paid"]),
    );
    const shown = toJsonString(ProviderAccountSchema, account);
    expect(shown).not.toContain(testKey);
    expect(shown).not.toContain(registered.attributes.secret_key);
  });

  it("stores the secret key and the webhook secret sealed: neither is in the stored document, both open with SECRETS_KEY", async () => {
    await start({ SECRETS_KEY });
    const liveKey = freshKey("live");
    const account = (await put("live", liveKey, ["card"])).providerAccount!;
    const webhookSecret = webhook(account.webhook!.webhookId)!.attributes.secret_key;
    const [record] = await stored();
    const text = JSON.stringify(record);
    expect(text).not.toContain(liveKey);
    expect(text).not.toContain(liveKey.slice(8));
    expect(text).not.toContain(webhookSecret);
    expect(openProviderSecretKey(SECRETS_KEY, record!._id, record!.secretKey)).toBe(liveKey);
    expect(openProviderWebhookSecret(SECRETS_KEY, record!._id, record!.webhook!.secret)).toBe(webhookSecret);
    expect(() => openProviderSecretKey("another-secrets-key-of-enough-length-000", record!._id, record!.secretKey)).toThrow();
  });

  it("reseals every account's secrets under the newest key of SECRETS_KEYS, after which the old key can go", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bayad-reseal-"));
    const NEW_KEY = "provider-accounts-test-newer-key-0123456789";
    await start({ SECRETS_KEY }, dir);
    const liveKey = freshKey("live");
    const account = (await put("live", liveKey, ["card"])).providerAccount!;
    await put("test", freshKey("test"), ["qrph"]);
    await server.close();
    await store.close();

    await start({ SECRETS_KEYS: `legacy:${SECRETS_KEY},k2:${NEW_KEY}` }, dir);
    expect((await client.resealProviderAccountSecrets({})).counts).toMatchObject({ resealed: 4, current: 0, unreadable: 0 });
    expect((await client.resealProviderAccountSecrets({})).counts).toMatchObject({ resealed: 0, current: 4, unreadable: 0 });
    const records = await stored();
    expect(records.flatMap((record) => [record.secretKey, record.webhook!.secret]).map(sealedKeyId)).toEqual(["k2", "k2", "k2", "k2"]);
    await server.close();
    await store.close();

    await start({ SECRETS_KEYS: `k2:${NEW_KEY}` }, dir);
    const [record] = (await stored()).filter((found) => found._id === account.providerAccountId);
    expect(openProviderSecretKey(parseKeyRing(`k2:${NEW_KEY}`, 32), record!._id, record!.secretKey)).toBe(liveKey);
    // The account still works with the new key alone: replacing its key opens the stored one to disable the previous webhook.
    const replaced = (await put("live", freshKey("live"), ["card"])).providerAccount!;
    expect(replaced.providerAccountId).toBe(account.providerAccountId);
    expect(webhook(account.webhook!.webhookId)!.attributes.status).toBe("disabled");
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a key of the other mode, naming secretKey, and asks PayMongo nothing and stores nothing", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    const liveKey = freshKey("live");
    const live = await refusal(put("live", testKey));
    expect(live.code).toBe("VALIDATION_FAILED");
    expect(live.details).toEqual([expect.stringMatching(/^secretKey: .*sk_live_/)]);
    const test = await refusal(put("test", liveKey));
    expect(test.code).toBe("VALIDATION_FAILED");
    expect(test.details).toEqual([expect.stringMatching(/^secretKey: .*sk_test_/)]);
    expect(JSON.stringify([live.details, test.details, live.message, test.message])).not.toContain(testKey.slice(8));
    expect(JSON.stringify([live.details, test.details, live.message, test.message])).not.toContain(liveKey.slice(8));
    expect(await stored()).toEqual([]);
    expect(await webhooksOf(testKey)).toEqual([]);
    expect(await webhooksOf(liveKey)).toEqual([]);
  });

  it("refuses payment method types that are not PayMongo codes, or none, naming the field", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    expect((await refusal(put("test", testKey, []))).details).toEqual(["paymentMethodTypes: must list at least one payment method type"]);
    expect((await refusal(put("test", testKey, ["qrph", "G-Cash"]))).details).toEqual([expect.stringMatching(/^paymentMethodTypes\[1\]: /)]);
    expect(await stored()).toEqual([]);
  });

  it("refuses a key PayMongo refuses, naming secretKey, and stores nothing", async () => {
    await start({ SECRETS_KEY });
    // Well-formed for Bayad, too short for the simulator's accounts: PayMongo answers 401.
    const refused = await refusal(put("test", "sk_test_abcd1234"));
    expect(refused.code).toBe("VALIDATION_FAILED");
    expect(refused.details).toEqual([expect.stringMatching(/^secretKey: /)]);
    expect(await stored()).toEqual([]);
  });

  it("gets the account, and answers NOT_FOUND for a project or mode without one", async () => {
    await start({ SECRETS_KEY });
    const put1 = (await put("test", freshKey("test"))).providerAccount!;
    const got = (await client.getProviderAccount({ projectId: "prj_shop1", environment: "test" })).providerAccount!;
    expect(got).toEqual(put1);
    expect((await refusal(client.getProviderAccount({ projectId: "prj_shop1", environment: "live" }))).code).toBe("RESOURCE_NOT_FOUND");
    expect((await refusal(client.getProviderAccount({ projectId: "prj_other", environment: "test" }))).code).toBe("RESOURCE_NOT_FOUND");
  });

  it("re-put keeps the providerAccountId, replaces the key, registers a fresh webhook and disables the previous one", async () => {
    await start({ SECRETS_KEY });
    const otherTestKey = freshKey("test");
    const first = (await put("test", freshKey("test"), ["qrph"])).providerAccount!;
    const second = await put("test", otherTestKey, ["card", "gcash"]);
    const account = second.providerAccount!;
    expect(second.created).toBe(false);
    expect(account.providerAccountId).toBe(first.providerAccountId);
    expect(account.secretKeyLast4).toBe(otherTestKey.slice(-4));
    expect(account.paymentMethodTypes).toEqual(["card", "gcash"]);
    expect(account.webhook!.webhookId).not.toBe(first.webhook!.webhookId);
    expect(account.webhook!.url).toBe(first.webhook!.url);
    expect(webhook(first.webhook!.webhookId)!.attributes.status).toBe("disabled");
    expect(webhook(account.webhook!.webhookId)!.attributes.status).toBe("enabled");
    expect(timestampMs(account.createdAt)).toBe(timestampMs(first.createdAt));
    const records = await stored();
    expect(records).toHaveLength(1);
    expect(openProviderSecretKey(SECRETS_KEY, records[0]!._id, records[0]!.secretKey)).toBe(otherTestKey);
  });

  it("re-put with the same key keeps the webhook PayMongo already has at the account's URL enabled", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    const first = (await put("test", testKey, ["qrph"])).providerAccount!;
    const again = (await put("test", testKey, ["qrph", "card"])).providerAccount!;
    expect(again.providerAccountId).toBe(first.providerAccountId);
    expect(webhook(again.webhook!.webhookId)!.attributes.status).toBe("enabled");
    expect((await webhooksOf(testKey)).filter((hook) => hook.attributes.status === "enabled")).toHaveLength(1);
  });

  it("deletes the account, answers it, and disables its webhook at PayMongo", async () => {
    await start({ SECRETS_KEY });
    const account = (await put("live", freshKey("live"), ["card"])).providerAccount!;
    const removed = (await client.deleteProviderAccount({ projectId: "prj_shop1", environment: "live" })).providerAccount!;
    expect(removed).toEqual(account);
    expect(await stored()).toEqual([]);
    expect(webhook(account.webhook!.webhookId)!.attributes.status).toBe("disabled");
    expect((await refusal(client.getProviderAccount({ projectId: "prj_shop1", environment: "live" }))).code).toBe("RESOURCE_NOT_FOUND");
    expect((await refusal(client.deleteProviderAccount({ projectId: "prj_shop1", environment: "live" }))).code).toBe("RESOURCE_NOT_FOUND");
  });

  it("resolves an account by project and mode or by its id, with its secrets sealed for holders of SECRETS_KEY", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    const account = (await put("test", testKey)).providerAccount!;
    const byProject = await client.resolveProviderAccount({ by: { case: "project", value: { projectId: "prj_shop1", environment: "test" } } });
    const byId = await client.resolveProviderAccount({ by: { case: "providerAccountId", value: account.providerAccountId } });
    expect(byProject.providerAccount).toEqual(account);
    expect(byId).toEqual(byProject);
    const sealed = byId.sealed!;
    expect(sealed.secretKey).not.toContain(testKey);
    expect(openSealed(SECRETS_KEY, providerSecretPurposes.secretKey, account.providerAccountId, sealed.secretKey)).toBe(testKey);
    expect(openSealed(SECRETS_KEY, providerSecretPurposes.webhookSecret, account.providerAccountId, sealed.webhookSecret)).toBe(
      webhook(account.webhook!.webhookId)!.attributes.secret_key,
    );
    const missing = await refusal(client.resolveProviderAccount({ by: { case: "providerAccountId", value: "pa_nosuchaccount000000000000" } }));
    expect(missing.code).toBe("RESOURCE_NOT_FOUND");
  });

  it("stores nothing when PayMongo fails the webhook registration, and leaves no webhook behind", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    // On every attempt: the first and the three resends its Idempotency-Key makes safe.
    simulator.injectFault({ method: "POST", path: "/v1/webhooks", status: 500, times: 4 });
    const refused = await refusal(put("test", testKey));
    simulator.clearFaults();
    expect(refused.code).toBe("PROVIDER_UNAVAILABLE");
    expect(await stored()).toEqual([]);
    expect(await webhooksOf(testKey)).toEqual([]);
  });

  it("answers PROVIDER_UNAVAILABLE when PayMongo cannot be reached, stores nothing and logs no key", async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    await start({ SECRETS_KEY, PAYMONGO_API_BASE: `http://127.0.0.1:${closed}` });
    const testKey = freshKey("test");
    const refused = await refusal(put("test", testKey));
    expect(refused.code).toBe("PROVIDER_UNAVAILABLE");
    expect(await stored()).toEqual([]);
    const logs = logLines.join("");
    expect(logs).not.toContain(testKey.slice(8));
    expect(logs).not.toContain(Buffer.from(`${testKey}:`).toString("base64").slice(0, 24));
  });

  it("keeps one account and one enabled webhook when two puts for a new project race", async () => {
    await start({ SECRETS_KEY });
    const keys = [freshKey("test"), freshKey("test")];
    const outcomes = await Promise.allSettled(keys.map((key) => put("test", key, ["qrph"], "prj_race")));
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") expect(fromConnectError(outcome.reason).code).toBe("CONCURRENT_MODIFICATION");
    }
    expect(outcomes.some((outcome) => outcome.status === "fulfilled")).toBe(true);
    const records = await stored();
    expect(records).toHaveLength(1);
    const enabled = (await Promise.all(keys.map(webhooksOf))).flat().filter((hook) => hook.attributes.status === "enabled");
    expect(enabled.map((hook) => hook.id)).toEqual([records[0]!.webhook!.webhookId]);
  });

  it("never logs a secret key or a webhook secret", async () => {
    await start({ SECRETS_KEY });
    const testKey = freshKey("test");
    const account = (await put("test", testKey)).providerAccount!;
    await put("test", freshKey("test"));
    await refusal(put("live", testKey));
    await client.deleteProviderAccount({ projectId: "prj_shop1", environment: "test" });
    const logs = logLines.join("");
    expect(logs).toContain(account.providerAccountId);
    expect(logs).not.toContain(testKey.slice(8));
    expect(logs).not.toContain(webhook(account.webhook!.webhookId)!.attributes.secret_key.slice(5));
  });

  it("refuses to put an account without SECRETS_KEY (503, naming it) and registers nothing", async () => {
    await start({});
    const testKey = freshKey("test");
    const refused = await refusal(put("test", testKey));
    expect(refused.code).toBe("SERVICE_UNAVAILABLE");
    expect(refused.message).toContain("SECRETS_KEY");
    expect(await stored()).toEqual([]);
    expect(await webhooksOf(testKey)).toEqual([]);
  });

  // A full disk, for real (a 2 MiB tmpfs filled up): needs root to mount it, skipped otherwise.
  const mountPoint = mkdtempSync(join(tmpdir(), "bayad-provider-accounts-disk-"));
  const mountRefusal = mountSmallTmpfs(mountPoint, "2m");
  if (mountRefusal !== undefined) {
    console.warn(`provider-accounts.test.ts: the full-disk case is skipped: ${mountRefusal}`);
    rmdirSync(mountPoint);
  }
  it.skipIf(mountRefusal !== undefined)("disables the webhook it registered when the store cannot write the account (503 STORE_UNAVAILABLE)", async () => {
    try {
      await start({ SECRETS_KEY }, join(mountPoint, "store"));
      fillDisk(join(mountPoint, "filler"));
      // A small commit may still fit in pages LMDB freed earlier; a large one cannot, and from
      // then on the store refuses every write until space returns.
      const scratch = store.collection<{ _id: string; note: string }>({ name: "scratch" });
      await expect(scratch.insertOne({ _id: "large", note: "x".repeat(512 * 1024) })).rejects.toBeInstanceOf(StoreNotWritableError);
      const testKey = freshKey("test");

      const refused = await refusal(put("test", testKey));

      expect(refused.code).toBe("STORE_UNAVAILABLE");
      const hooks = await webhooksOf(testKey);
      expect(hooks).toHaveLength(1);
      expect(hooks[0]!.attributes.status).toBe("disabled");
      expect(await stored()).toEqual([]);
    } finally {
      await server?.close();
      await store?.close().catch(() => undefined);
      server = undefined as unknown as RunningServer;
      store = undefined as unknown as Store;
      execFileSync("umount", ["-l", mountPoint]);
      rmdirSync(mountPoint);
    }
  });
});

function timestampMs(timestamp: { seconds: bigint; nanos: number } | undefined): number {
  return Number(timestamp!.seconds) * 1000 + Math.floor(timestamp!.nanos / 1e6);
}
