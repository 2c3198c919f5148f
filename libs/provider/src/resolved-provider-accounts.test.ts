import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { AppError, sealText, toConnectError } from "@bayad/kit";
import { ResolveProviderAccountResponseSchema, type ResolveProviderAccountResponse } from "@bayad/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerSecretPurposes } from "./provider-secrets.js";
import { createResolvedProviderAccounts, type ResolveRequest } from "./resolved-provider-accounts.js";
import { chooseProvider, providerOfResource } from "./providers.js";
import { context, newLiveKey, php, thrownBy } from "./paymongo/test-support/simulator-fixture.js";

const SECRETS_KEY = randomBytes(32).toString("hex");
let simulator: PaymongoSimulator;
let xendit: XenditSimulator;

beforeAll(async () => {
  [simulator, xendit] = await Promise.all([startPaymongoSimulator(), startXenditSimulator()]);
});
afterAll(async () => {
  await Promise.all([simulator.close(), xendit.close()]);
});

interface Account {
  providerAccountId: string;
  projectId: string;
  environment: string;
  secretKey: string;
  updatedAt: Date;
  /** Default paymongo. */
  provider?: "paymongo" | "xendit";
}

/**
 * The payments service's ResolveProviderAccount as the wire hands it: the account with its key
 * sealed under SECRETS_KEY (the account id as context), RESOURCE_NOT_FOUND as a ConnectError.
 * Asked for the hosted payments' account, it answers as the payments service does (tested there):
 * the project's PayMongo account, else its Xendit one.
 */
function paymentsService(accounts: Account[]) {
  const asked: ResolveRequest[] = [];
  // Sealed once per key, as the payments service stores it (each sealing draws a fresh IV).
  const sealed = new Map<string, string>();
  const sealedKeyOf = (account: Account) => {
    const key = `${account.providerAccountId}:${account.secretKey}`;
    if (!sealed.has(key)) sealed.set(key, sealText(SECRETS_KEY, providerSecretPurposes.secretKey, account.providerAccountId, account.secretKey));
    return sealed.get(key)!;
  };
  const resolve = async (request: ResolveRequest): Promise<ResolveProviderAccountResponse> => {
    asked.push(request);
    const { by } = request;
    const ofProject = (provider: string) =>
      by.case === "project" &&
      accounts.find((candidate) => candidate.projectId === by.value.projectId && candidate.environment === by.value.environment && (candidate.provider ?? "paymongo") === provider);
    const account =
      by.case === "providerAccountId" ? accounts.find((candidate) => candidate.providerAccountId === by.value) : ofProject("paymongo") || ofProject("xendit");
    if (!account) throw toConnectError(new AppError("RESOURCE_NOT_FOUND", "No provider account."));
    return create(ResolveProviderAccountResponseSchema, {
      providerAccount: {
        providerAccountId: account.providerAccountId,
        projectId: account.projectId,
        environment: account.environment,
        provider: account.provider ?? "paymongo",
        secretKeyLast4: account.secretKey.slice(-4),
        paymentMethodTypes: account.provider === "xendit" ? ["GCASH"] : ["gcash", "qrph"],
        updatedAt: timestampFromDate(account.updatedAt),
      },
      sealed: {
        secretKey: sealedKeyOf(account),
        webhookSecret: sealText(SECRETS_KEY, providerSecretPurposes.webhookSecret, account.providerAccountId, "whsk_x"),
      },
    });
  };
  return { resolve, asked };
}

const linkRequest = (resourceId: string) => ({ kind: "payment_link" as const, resourceId, referenceId: `ref-${resourceId}`, amount: php(150_00), description: "A class" });

/** `secretsKey` null: the service has none. */
const resolvedAccounts = (accounts: Account[], secretsKey: string | null = SECRETS_KEY) => {
  const payments = paymentsService(accounts);
  const resolved = createResolvedProviderAccounts({ resolve: payments.resolve, secretsKey: secretsKey ?? undefined, paymongoApiBase: simulator.url, xenditApiBase: xendit.url });
  return Object.assign(resolved, { asked: payments.asked });
};

describe("createResolvedProviderAccounts", () => {
  it("resolves a project's hosted payments' account with the payments service and makes its links at PayMongo with the opened key", async () => {
    const account = { providerAccountId: "pa_one", projectId: "prj_a", environment: "live", secretKey: newLiveKey(), updatedAt: new Date() };
    const accounts = resolvedAccounts([account]);
    try {
      const choice = await chooseProvider({ test: undefined as never, accounts }, { projectId: "prj_a", environment: "live" });
      expect(choice.providerAccountId).toBe("pa_one");
      expect(accounts.asked[0]).toEqual({ by: { case: "project", value: { projectId: "prj_a", environment: "live", provider: "", hostedPayments: true } } });
      const page = await choice.provider.createHostedPayment(linkRequest("link_1"), context());
      // Made on the account's own key: only that key sees it at PayMongo.
      const made = simulator.find(page.providerReference) as { attributes: { remarks: string; checkout_url: string; livemode: boolean } };
      expect(made.attributes).toMatchObject({ remarks: "link_1", checkout_url: page.url, livemode: true });

      // Later calls reach the account by id (the same adapter), and read the link there.
      const again = await accounts.forAccount("pa_one");
      expect(again).toBe(choice.provider);
      expect((await again!.hostedPaymentState!(page.providerReference)).status).toBe("open");
      expect(await providerOfResource({ test: undefined as never, accounts }, { environment: "live", providerAccountId: "pa_one" })).toBe(again);
    } finally {
      await accounts.close();
    }
  });

  it("answers no account when the payments service has none, so live mode is PROVIDER_NOT_CONFIGURED", async () => {
    const accounts = resolvedAccounts([]);
    expect(await accounts.forProject("prj_none", "live")).toBeUndefined();
    expect(await accounts.forAccount("pa_gone")).toBeUndefined();
    await expect(chooseProvider({ test: undefined as never, accounts }, { projectId: "prj_none", environment: "live" })).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    await expect(providerOfResource({ test: undefined as never, accounts }, { environment: "live", providerAccountId: "pa_gone" })).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONFIGURED",
    });
  });

  it("builds a Xendit adapter for a Xendit account: a project holding only Xendit makes its links as Xendit invoices", async () => {
    const xenditKey = `xnd_production_${randomBytes(16).toString("hex")}`;
    const account = { providerAccountId: "pa_xendit", projectId: "prj_x", environment: "live", secretKey: xenditKey, updatedAt: new Date(1), provider: "xendit" as const };
    const accounts = resolvedAccounts([account]);
    try {
      const choice = await chooseProvider({ test: undefined as never, accounts }, { projectId: "prj_x", environment: "live" });
      expect(choice.providerAccountId).toBe("pa_xendit");
      expect(choice.provider.name).toBe("xendit");
      const page = await choice.provider.createHostedPayment(linkRequest("link_x1"), context());
      // The invoice is the account's (made with its opened key), offering the account's channels.
      expect(page.url).toBe(`${xendit.url}/web/${page.providerReference}`);
      expect(xendit.find(page.providerReference)).toMatchObject({ external_id: "link_x1", amount: 150, available_ewallets: [{ ewallet_type: "GCASH" }], available_qr_codes: [] });
      const auth = { Authorization: `Basic ${Buffer.from(`${xenditKey}:`).toString("base64")}` };
      expect((await fetch(`${xendit.url}/v2/invoices/${page.providerReference}`, { headers: auth })).status).toBe(200);
      expect(await accounts.forAccount("pa_xendit")).toBe(choice.provider);
    } finally {
      await accounts.close();
    }
  });

  it("prefers the project's PayMongo account for hosted payments, and answers its Xendit account by id", async () => {
    const xenditAccount = { providerAccountId: "pa_xendit", projectId: "prj_x", environment: "live", secretKey: "xnd_production_abc", updatedAt: new Date(1), provider: "xendit" as const };
    const paymongo = { providerAccountId: "pa_paymongo", projectId: "prj_x", environment: "live", secretKey: newLiveKey(), updatedAt: new Date(2) };
    const accounts = resolvedAccounts([xenditAccount, paymongo]);
    try {
      expect((await accounts.forProject("prj_x", "live"))?.providerAccountId).toBe("pa_paymongo");
      expect((await accounts.forAccount("pa_xendit"))?.name).toBe("xendit");
      expect((await accounts.forAccount("pa_paymongo"))?.name).toBe("paymongo");
    } finally {
      await accounts.close();
    }
  });

  it("passes on the payments service's other failures as they are", async () => {
    const accounts = createResolvedProviderAccounts({
      resolve: async () => {
        throw toConnectError(new AppError("SERVICE_UNAVAILABLE", "payments is down"));
      },
      secretsKey: SECRETS_KEY,
      paymongoApiBase: simulator.url,
      xenditApiBase: xendit.url,
    });
    await expect(accounts.forProject("prj_a", "live")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("keeps one adapter per account version and makes a fresh one when the account is put again", async () => {
    const account = { providerAccountId: "pa_two", projectId: "prj_b", environment: "live", secretKey: newLiveKey(), updatedAt: new Date(1_700_000_000_000) };
    const accounts = resolvedAccounts([account]);
    try {
      const first = await accounts.forAccount("pa_two");
      expect(await accounts.forAccount("pa_two")).toBe(first);
      // Re-put with another key: links made now are the new key's.
      account.secretKey = newLiveKey();
      account.updatedAt = new Date(1_700_000_060_000);
      const second = await accounts.forAccount("pa_two");
      expect(second).not.toBe(first);
      const page = await second!.createHostedPayment(linkRequest("link_2"), context());
      const auth = { Authorization: `Basic ${Buffer.from(`${account.secretKey}:`).toString("base64")}` };
      expect((await fetch(`${simulator.url}/v1/links/${page.providerReference}`, { headers: auth })).status).toBe(200);
    } finally {
      await accounts.close();
    }
  });

  it("closes a link at PayMongo by archiving it and reopens the same link; a paid one is answered paid, not archived", async () => {
    const account = { providerAccountId: "pa_four", projectId: "prj_d", environment: "live", secretKey: newLiveKey(), updatedAt: new Date() };
    const accounts = resolvedAccounts([account]);
    try {
      const provider = (await accounts.forAccount("pa_four"))!;
      const request = linkRequest("link_4");
      const page = await provider.createHostedPayment(request, context());
      const archivedAt = (id: string) => (simulator.find(id) as { attributes: { archived: boolean } }).attributes.archived;
      expect((await provider.closeHostedPayment!(page.providerReference)).status).toBe("expired");
      expect(archivedAt(page.providerReference)).toBe(true);
      // Again (a retry): PayMongo's archive is idempotent.
      expect((await provider.closeHostedPayment!(page.providerReference)).status).toBe("expired");
      expect(await provider.reopenHostedPayment!(request, page.providerReference, context())).toEqual(page);
      expect(archivedAt(page.providerReference)).toBe(false);

      const paid = await provider.createHostedPayment(linkRequest("link_5"), context());
      await simulator.payLink(paid.providerReference);
      expect(await provider.closeHostedPayment!(paid.providerReference)).toMatchObject({ status: "paid", providerPaymentId: expect.stringMatching(/^pay_/) });
      expect(archivedAt(paid.providerReference)).toBe(false);
    } finally {
      await accounts.close();
    }
  });

  it("refuses to use an account without SECRETS_KEY (503), and never with another SECRETS_KEY", async () => {
    const account = { providerAccountId: "pa_three", projectId: "prj_c", environment: "live", secretKey: newLiveKey(), updatedAt: new Date() };
    const withoutKey = resolvedAccounts([account], null);
    await expect(withoutKey.forProject("prj_c", "live")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    const otherKey = resolvedAccounts([account], randomBytes(32).toString("hex"));
    const thrown = await thrownBy(() => otherKey.forProject("prj_c", "live"));
    expect(String(thrown)).not.toContain(account.secretKey);
  });
});
