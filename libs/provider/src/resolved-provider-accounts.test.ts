import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { AppError, sealText, toConnectError } from "@bayad/kit";
import { ResolveProviderAccountResponseSchema, type ResolveProviderAccountResponse } from "@bayad/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerSecretPurposes } from "./provider-secrets.js";
import { createResolvedProviderAccounts, type ResolveRequest } from "./resolved-provider-accounts.js";
import { chooseProvider, providerOfResource } from "./providers.js";
import { context, newLiveKey, php, thrownBy } from "./paymongo/test-support/simulator-fixture.js";

const SECRETS_KEY = randomBytes(32).toString("hex");
let simulator: PaymongoSimulator;

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
});
afterAll(async () => {
  await simulator.close();
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
    const account = accounts.find((candidate) =>
      by.case === "providerAccountId"
        ? candidate.providerAccountId === by.value
        : candidate.projectId === by.value.projectId &&
          candidate.environment === by.value.environment &&
          (by.value.provider === "" || (candidate.provider ?? "paymongo") === by.value.provider),
    );
    if (!account) throw toConnectError(new AppError("RESOURCE_NOT_FOUND", "No provider account."));
    return create(ResolveProviderAccountResponseSchema, {
      providerAccount: {
        providerAccountId: account.providerAccountId,
        projectId: account.projectId,
        environment: account.environment,
        provider: account.provider ?? "paymongo",
        secretKeyLast4: account.secretKey.slice(-4),
        paymentMethodTypes: ["gcash", "qrph"],
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

describe("createResolvedProviderAccounts", () => {
  it("resolves a project's account with the payments service and makes its links at PayMongo with the opened key", async () => {
    const account = { providerAccountId: "pa_one", projectId: "prj_a", environment: "live", secretKey: newLiveKey(), updatedAt: new Date() };
    const payments = paymentsService([account]);
    const accounts = createResolvedProviderAccounts({ resolve: payments.resolve, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url });
    try {
      const choice = await chooseProvider({ test: undefined as never, accounts }, { projectId: "prj_a", environment: "live" });
      expect(choice.providerAccountId).toBe("pa_one");
      expect(payments.asked[0]).toEqual({ by: { case: "project", value: { projectId: "prj_a", environment: "live", provider: "paymongo" } } });
      const page = await choice.provider.createHostedPayment(linkRequest("link_1"), context());
      // Made on the account's own key: only that key sees it at PayMongo.
      const made = simulator.find(page.providerReference) as { attributes: { remarks: string; checkout_url: string; livemode: boolean } };
      expect(made.attributes).toMatchObject({ remarks: "link_1", checkout_url: page.url, livemode: true });

      // Later calls reach the account by id, and read the link there.
      const again = await accounts.paymongoOf("pa_one");
      expect((await again!.retrieveLinkById(page.providerReference)).status).toBe("unpaid");
      expect(await providerOfResource({ test: undefined as never, accounts }, { environment: "live", providerAccountId: "pa_one" })).toBe(again);
    } finally {
      await accounts.close();
    }
  });

  it("answers no account when the payments service has none, so live mode is PROVIDER_NOT_CONFIGURED", async () => {
    const accounts = createResolvedProviderAccounts({ resolve: paymentsService([]).resolve, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url });
    expect(await accounts.forProject("prj_none", "live")).toBeUndefined();
    expect(await accounts.paymongoOf("pa_gone")).toBeUndefined();
    await expect(chooseProvider({ test: undefined as never, accounts }, { projectId: "prj_none", environment: "live" })).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    await expect(providerOfResource({ test: undefined as never, accounts }, { environment: "live", providerAccountId: "pa_gone" })).rejects.toMatchObject({
      code: "PROVIDER_NOT_CONFIGURED",
    });
  });

  it("uses the project's PayMongo account only: a Xendit account beside it is never chosen nor answered by id", async () => {
    const xendit = { providerAccountId: "pa_xendit", projectId: "prj_x", environment: "live", secretKey: "xnd_production_abc", updatedAt: new Date(1), provider: "xendit" as const };
    const paymongo = { providerAccountId: "pa_paymongo", projectId: "prj_x", environment: "live", secretKey: newLiveKey(), updatedAt: new Date(2) };
    const accounts = createResolvedProviderAccounts({ resolve: paymentsService([xendit, paymongo]).resolve, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url });
    try {
      expect((await accounts.forProject("prj_x", "live"))?.providerAccountId).toBe("pa_paymongo");
      expect(await accounts.forAccount("pa_xendit")).toBeUndefined();
      expect(await accounts.paymongoOf("pa_xendit")).toBeUndefined();
      const alone = createResolvedProviderAccounts({ resolve: paymentsService([xendit]).resolve, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url });
      expect(await alone.forProject("prj_x", "live")).toBeUndefined();
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
    });
    await expect(accounts.forProject("prj_a", "live")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("keeps one adapter per account version and makes a fresh one when the account is put again", async () => {
    const account = { providerAccountId: "pa_two", projectId: "prj_b", environment: "live", secretKey: newLiveKey(), updatedAt: new Date(1_700_000_000_000) };
    const accounts = createResolvedProviderAccounts({ resolve: paymentsService([account]).resolve, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url });
    try {
      const first = await accounts.paymongoOf("pa_two");
      expect(await accounts.paymongoOf("pa_two")).toBe(first);
      // Re-put with another key: links made now are the new key's.
      account.secretKey = newLiveKey();
      account.updatedAt = new Date(1_700_000_060_000);
      const second = await accounts.paymongoOf("pa_two");
      expect(second).not.toBe(first);
      const page = await second!.createHostedPayment(linkRequest("link_2"), context());
      const auth = { Authorization: `Basic ${Buffer.from(`${account.secretKey}:`).toString("base64")}` };
      expect((await fetch(`${simulator.url}/v1/links/${page.providerReference}`, { headers: auth })).status).toBe(200);
    } finally {
      await accounts.close();
    }
  });

  it("archives and unarchives a link at the account's PayMongo", async () => {
    const account = { providerAccountId: "pa_four", projectId: "prj_d", environment: "live", secretKey: newLiveKey(), updatedAt: new Date() };
    const accounts = createResolvedProviderAccounts({ resolve: paymentsService([account]).resolve, secretsKey: SECRETS_KEY, paymongoApiBase: simulator.url });
    try {
      const page = await (await accounts.paymongoOf("pa_four"))!.createHostedPayment(linkRequest("link_4"), context());
      const archivedAt = () => (simulator.find(page.providerReference) as { attributes: { archived: boolean } }).attributes.archived;
      expect((await accounts.setLinkArchived("pa_four", page.providerReference, true))?.id).toBe(page.providerReference);
      expect(archivedAt()).toBe(true);
      await accounts.setLinkArchived("pa_four", page.providerReference, false);
      expect(archivedAt()).toBe(false);
      expect(await accounts.setLinkArchived("pa_gone", page.providerReference, true)).toBeUndefined();
      expect(archivedAt()).toBe(false);
    } finally {
      await accounts.close();
    }
  });

  it("refuses to use an account without SECRETS_KEY (503), and never with another SECRETS_KEY", async () => {
    const account = { providerAccountId: "pa_three", projectId: "prj_c", environment: "live", secretKey: newLiveKey(), updatedAt: new Date() };
    const withoutKey = createResolvedProviderAccounts({ resolve: paymentsService([account]).resolve, secretsKey: undefined, paymongoApiBase: simulator.url });
    await expect(withoutKey.forProject("prj_c", "live")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    const otherKey = createResolvedProviderAccounts({ resolve: paymentsService([account]).resolve, secretsKey: randomBytes(32).toString("hex"), paymongoApiBase: simulator.url });
    const thrown = await thrownBy(() => otherKey.forProject("prj_c", "live"));
    expect(String(thrown)).not.toContain(account.secretKey);
  });
});
