import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { toJsonString } from "@bufbuild/protobuf";
import { ProviderAccountSchema, ProviderAccountsService } from "@bayad/proto";
import { createLogger, fromConnectError, parseKeyRing, randomBase62, sealedKeyId, type RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { openProviderCallbackToken, openProviderSecretKey } from "@bayad/provider";
import { startPaymentsServer } from "../server.js";
import { readPaymentsConfig } from "../config.js";
import { createAccountProviders } from "../providers/account-providers.js";
import type { ProviderAccountRecord } from "./provider-account.js";
import { createProviderAccountsRepository } from "./provider-accounts-repository.js";

const SECRETS_KEY = "xendit-accounts-test-secrets-key-0123456789";
const PUBLIC_URL = "https://pay.bayad.example.ph";
const TOKEN = "xnd-callback-verification-token-7Hq2";
const xenditKey = (mode: "test" | "live") => `xnd_${mode === "live" ? "production" : "development"}_${randomBase62(24)}`;
const paymongoKey = (mode: "test" | "live") => `sk_${mode}_${randomBase62(24)}`;

/** Xendit accounts beside PayMongo ones: the ProviderAccountsService over gRPC, in front of both simulators. */
describe("provider accounts: one per project, environment and provider, Xendit's among them", () => {
  let paymongo: PaymongoSimulator;
  let xendit: XenditSimulator;
  let store: Store;
  let server: RunningServer;
  let client: Client<typeof ProviderAccountsService>;

  const start = async (env: Record<string, string> = {}) => {
    store = createTestStore();
    server = await startPaymentsServer({
      store,
      config: readPaymentsConfig({ PAYMONGO_API_BASE: paymongo.url, XENDIT_API_BASE: xendit.url, PUBLIC_URL, SECRETS_KEY, ...env }),
      logger: createLogger("test", "silent"),
    });
    client = createClient(ProviderAccountsService, createGrpcTransport({ baseUrl: server.url }));
  };
  const raw = () => store.collection<ProviderAccountRecord>({ name: "provider_accounts" }).find({});
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected the call to be refused");
      },
      (error: unknown) => fromConnectError(error),
    );
  const putXendit = (environment: string, secretKey: string, extra: { callbackToken?: string; paymentMethodTypes?: string[]; projectId?: string } = {}) =>
    client.putProviderAccount({
      projectId: extra.projectId ?? "prj_both",
      environment,
      provider: "xendit",
      secretKey,
      paymentMethodTypes: extra.paymentMethodTypes ?? [],
      callbackToken: extra.callbackToken ?? TOKEN,
    });
  const putPaymongo = (environment: string, secretKey: string, projectId = "prj_both") =>
    client.putProviderAccount({ projectId, environment, provider: "paymongo", secretKey, paymentMethodTypes: ["gcash"] });

  beforeAll(async () => {
    [paymongo, xendit] = await Promise.all([startPaymongoSimulator(), startXenditSimulator()]);
  });
  afterAll(async () => {
    await Promise.all([paymongo.close(), xendit.close()]);
  });
  afterEach(async () => {
    xendit.clearFaults();
    await server?.close();
    await store?.close();
  });

  it("holds a PayMongo and a Xendit account in one environment; get and delete name the provider when there are two", async () => {
    await start();
    const pm = (await putPaymongo("test", paymongoKey("test"))).providerAccount!;
    const key = xenditKey("test");
    const put = await putXendit("test", key, { paymentMethodTypes: ["gcash", "QRPH", "GCASH"] });
    const xa = put.providerAccount!;
    expect(put.created).toBe(true);
    expect(xa).toMatchObject({ provider: "xendit", environment: "test", secretKeyLast4: key.slice(-4), paymentMethodTypes: ["GCASH", "QRPH"] });
    expect(xa.callback).toMatchObject({ url: `${PUBLIC_URL}/provider-webhooks/xendit/${xa.providerAccountId}`, tokenLast4: TOKEN.slice(-4) });
    expect(xa.webhook).toBeUndefined();
    expect(pm.callback).toBeUndefined();
    expect(toJsonString(ProviderAccountSchema, xa)).not.toContain(TOKEN);

    const ambiguous = await refusal(client.getProviderAccount({ projectId: "prj_both", environment: "test" }));
    expect(ambiguous).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^provider: /)] });
    expect((await client.getProviderAccount({ projectId: "prj_both", environment: "test", provider: "xendit" })).providerAccount?.providerAccountId).toBe(xa.providerAccountId);
    expect((await client.getProviderAccount({ projectId: "prj_both", environment: "test", provider: "paymongo" })).providerAccount?.providerAccountId).toBe(pm.providerAccountId);
    expect(await refusal(client.getProviderAccount({ projectId: "prj_both", environment: "live", provider: "xendit" }))).toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect(await refusal(client.getProviderAccount({ projectId: "prj_both", environment: "test", provider: "stripe" }))).toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["provider: must be paymongo or xendit"],
    });

    // Every account of the project, both environments, oldest first.
    const live = (await putXendit("live", xenditKey("live"))).providerAccount!;
    const listed = (await client.listProviderAccounts({ projectId: "prj_both" })).providerAccounts.map((account) => account.providerAccountId);
    expect(listed).toEqual([pm.providerAccountId, xa.providerAccountId, live.providerAccountId]);

    // Putting the Xendit account again replaces it in place (the callback URL set in Xendit's dashboard stays right).
    const again = await putXendit("test", xenditKey("test"), { callbackToken: "another-token-0123456789" });
    expect(again).toMatchObject({ created: false, providerAccount: { providerAccountId: xa.providerAccountId, callback: { url: xa.callback!.url, tokenLast4: "6789" } } });

    // The routing seam lists both, with their adapters.
    const providers = createAccountProviders({
      accounts: createProviderAccountsRepository(store),
      secretsKey: SECRETS_KEY,
      paymongoApiBase: paymongo.url,
      xenditApiBase: xendit.url,
    });
    const routable = await providers.accountsOf("prj_both", "test");
    expect(routable.map(({ account, provider }) => [account.provider, provider.name])).toEqual([
      ["paymongo", "paymongo"],
      ["xendit", "xendit"],
    ]);
    expect(await providers.paymongoOf(xa.providerAccountId)).toBeUndefined();
    expect(await providers.xenditOf(pm.providerAccountId)).toBeUndefined();
    expect((await providers.xenditOf(xa.providerAccountId))?.provider.name).toBe("xendit");

    expect(await refusal(client.deleteProviderAccount({ projectId: "prj_both", environment: "test" }))).toMatchObject({ code: "VALIDATION_FAILED" });
    expect((await client.deleteProviderAccount({ projectId: "prj_both", environment: "test", provider: "xendit" })).providerAccount?.provider).toBe("xendit");
    // One left: named or not, it is that one.
    expect((await client.getProviderAccount({ projectId: "prj_both", environment: "test" })).providerAccount?.providerAccountId).toBe(pm.providerAccountId);
  });

  it("resolves the hosted payments' account: PayMongo's, else Xendit's, else none", async () => {
    await start();
    const hosted = (projectId: string, environment = "test", provider = "") =>
      client.resolveProviderAccount({ by: { case: "project", value: { projectId, environment, provider, hostedPayments: true } } });
    const xa = (await putXendit("test", xenditKey("test"), { projectId: "prj_hosted" })).providerAccount!;
    // Only Xendit: links and invoices go there.
    expect((await hosted("prj_hosted")).providerAccount?.providerAccountId).toBe(xa.providerAccountId);
    // PayMongo's too, put after it: PayMongo's wins, whatever the ages.
    const pm = (await putPaymongo("test", paymongoKey("test"), "prj_hosted")).providerAccount!;
    const both = await hosted("prj_hosted");
    expect(both.providerAccount?.providerAccountId).toBe(pm.providerAccountId);
    expect(both.sealed?.secretKey).not.toBe("");
    // Plain resolution is unchanged: two accounts without a provider named is ambiguous.
    expect(await refusal(client.resolveProviderAccount({ by: { case: "project", value: { projectId: "prj_hosted", environment: "test" } } }))).toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await refusal(hosted("prj_hosted", "test", "xendit"))).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^provider: /)] });
    expect(await refusal(hosted("prj_hosted", "live"))).toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    expect(await refusal(hosted("prj_nobody"))).toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });

  it("refuses what a Xendit put gets wrong, naming the field, before asking Xendit or storing anything", async () => {
    await start();
    const cases: Array<[field: string, call: Promise<unknown>]> = [
      ["secretKey", putXendit("test", paymongoKey("test"))],
      ["secretKey", putXendit("live", xenditKey("test"))],
      ["secretKey", putXendit("test", xenditKey("live"))],
      ["callbackToken", putXendit("test", xenditKey("test"), { callbackToken: "" })],
      ["callbackToken", putXendit("test", xenditKey("test"), { callbackToken: "too-short" })],
      ["callbackToken", putXendit("test", xenditKey("test"), { callbackToken: "has a space in it, 0123" })],
      ["paymentMethodTypes[1]", putXendit("test", xenditKey("test"), { paymentMethodTypes: ["GCASH", "card"] })],
      ["callbackToken", client.putProviderAccount({ projectId: "prj_v", environment: "test", provider: "paymongo", secretKey: paymongoKey("test"), paymentMethodTypes: ["gcash"], callbackToken: TOKEN })],
    ];
    for (const [field, call] of cases) {
      const refused = await refusal(call);
      expect(refused.code, field).toBe("VALIDATION_FAILED");
      expect(refused.details, field).toEqual([expect.stringMatching(new RegExp(`^${field.replace(/[[\]]/g, "\\$&")}: `))]);
      expect(JSON.stringify(refused.details)).not.toContain(TOKEN);
    }
    expect(await raw()).toEqual([]);
  });

  it("refuses a key Xendit refuses (401) as PayMongo's refused key is, and stores nothing", async () => {
    await start();
    xendit.injectFault({ method: "GET", path: "/v3/payment_requests/", status: 401, code: "INVALID_API_KEY" });
    const key = xenditKey("test");
    const refused = await refusal(putXendit("test", key));
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", details: [`secretKey: Xendit refused the key ending in ${key.slice(-4)}`] });
    expect(await raw()).toEqual([]);
  });

  it("stores the Xendit key and callback token sealed, never in the clear; a reseal moves the token to the newest key too", async () => {
    await start();
    const key = xenditKey("live");
    await putXendit("live", key);
    const [record] = await raw();
    const text = JSON.stringify(record);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(15));
    expect(record!.callback).toMatchObject({ tokenLast4: TOKEN.slice(-4) });
    expect(openProviderCallbackToken(SECRETS_KEY, record!._id, record!.callback!.token)).toBe(TOKEN);
    expect(openProviderSecretKey(SECRETS_KEY, record!._id, record!.secretKey)).toBe(key);
    await server.close();

    // A new newest key in the ring: the reseal moves the key and the callback token under it.
    const ring = `legacy:${SECRETS_KEY},k2:${"n".repeat(40)}`;
    server = await startPaymentsServer({
      store,
      config: readPaymentsConfig({ PAYMONGO_API_BASE: paymongo.url, XENDIT_API_BASE: xendit.url, PUBLIC_URL, SECRETS_KEYS: ring }),
      logger: createLogger("test", "silent"),
    });
    client = createClient(ProviderAccountsService, createGrpcTransport({ baseUrl: server.url }));
    const { counts } = await client.resealProviderAccountSecrets({});
    expect(counts).toMatchObject({ unreadable: 0 });
    expect(counts!.resealed).toBeGreaterThanOrEqual(2);
    const [resealed] = await raw();
    expect([resealed!.secretKey, resealed!.callback!.token].map(sealedKeyId)).toEqual(["k2", "k2"]);
    expect(openProviderCallbackToken(parseKeyRing(`k2:${"n".repeat(40)}`, 32), resealed!._id, resealed!.callback!.token)).toBe(TOKEN);
  });
});
