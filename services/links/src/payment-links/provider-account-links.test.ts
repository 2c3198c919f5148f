import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import {
  createSandboxProvider,
  type HostedPaymentRequest,
  type PaymentProvider,
  type PaymongoProvider,
  type ProviderAccounts,
  type ResolvedProviderAccounts,
} from "@bayad/provider";
import { createPaymentLinksRepository } from "./payment-links-repository.js";
import {
  applyProviderLinkPayment,
  createPaymentLink,
  getHostedPaymentLink,
  setPaymentLinkArchived,
  simulatePaymentLinkPayment,
  type PaymentLinksDeps,
} from "./payment-links.js";
import { createTestStore } from "@bayad/store/testing";

/**
 * A provider account's adapter as links see it: PayMongo's link (its own reference number and
 * checkout URL, no page token), and no simulated payer actions.
 */
function paymongoLike() {
  const asked: HostedPaymentRequest[] = [];
  const provider: PaymentProvider = {
    ...createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 }),
    name: "paymongo",
    async createHostedPayment(request) {
      asked.push(request);
      const reference = `R${String(asked.length).padStart(6, "0")}`;
      return { providerReference: `link_pm${asked.length}`, referenceNumber: reference, url: `https://pm.link/shop/${reference}`, pageToken: "" };
    },
    decidePayment() {
      throw new AppError("INVALID_STATE_TRANSITION", "Payer actions are simulated only in the sandbox.");
    },
  };
  return { provider, asked };
}

async function setup() {
  const store = createTestStore();
  const paymongo = paymongoLike();
  // prj_a has an account in both modes; prj_b has none.
  const accounts: ProviderAccounts = {
    async forProject(projectId, environment) {
      return projectId === "prj_a" ? { providerAccountId: `pa_${environment}`, provider: paymongo.provider } : undefined;
    },
    async forAccount(providerAccountId) {
      return providerAccountId.startsWith("pa_") ? paymongo.provider : undefined;
    },
  };
  // PayMongo's side of the account's links: paid or not, archived or not, and what was asked.
  const atPaymongo = new Map<string, { paid: boolean; archived: boolean }>();
  const archiveCalls: Array<[string, boolean]> = [];
  const linkAt = (id: string) => atPaymongo.get(id) ?? { paid: false, archived: false };
  const providerLinks: Pick<ResolvedProviderAccounts, "paymongoOf" | "setLinkArchived"> = {
    async paymongoOf(providerAccountId) {
      if (!providerAccountId.startsWith("pa_")) return undefined;
      return {
        async retrieveLinkById(id: string) {
          const paid = linkAt(id).paid;
          return { id, status: paid ? "paid" : "unpaid", referenceNumber: "", checkoutUrl: "", payments: paid ? [{ id: "pay_1", status: "paid" }] : [] };
        },
      } as unknown as PaymongoProvider;
    },
    async setLinkArchived(providerAccountId, id, archived) {
      if (!providerAccountId.startsWith("pa_")) return undefined;
      archiveCalls.push([id, archived]);
      atPaymongo.set(id, { ...linkAt(id), archived });
      return { id, status: linkAt(id).paid ? "paid" : "unpaid", referenceNumber: "", checkoutUrl: "", payments: [] };
    },
  };
  const deps: PaymentLinksDeps = {
    store,
    repository: createPaymentLinksRepository(store),
    outbox: createOutbox(store, "links"),
    providers: { test: createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 }), accounts },
    now: () => new Date(),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
    providerLinks,
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  const subjectsOf = async (resourceId: string) => (await outbox.find({ resourceId }, { sort: { aggregateVersion: 1 } })).map((e) => e.subject);
  return { deps, paymongo, subjectsOf, atPaymongo, archiveCalls };
}

let keys = 0;
const caller = (projectId = "prj_a", environment: "test" | "live" = "live") => ({
  projectId,
  environment,
  correlationId: "c",
  idempotencyKey: `key-${String(++keys).padStart(16, "0")}`,
});
const input = (referenceId: string) => ({ referenceId, amountMinor: 350_00, description: "Yoga class", remarks: "", metadata: {} });

describe("payment links of a project's provider account", () => {
  it("makes a live link at the project's account, with the provider's reference number and URL, and keeps the account", async () => {
    const { deps, paymongo } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-1"));
    expect(link).toMatchObject({
      status: "active",
      providerAccountId: "pa_live",
      providerReference: "link_pm1",
      referenceNumber: "R000001",
      url: "https://pm.link/shop/R000001",
      pageToken: "",
    });
    expect(paymongo.asked).toEqual([expect.objectContaining({ kind: "payment_link", resourceId: link._id, referenceId: "yoga-1" })]);
    // Bayad's sandbox page does not open for it, whatever token is given.
    await expect(getHostedPaymentLink(deps, link._id, "")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });

  it("answers PROVIDER_NOT_CONFIGURED for a live link of a project without an account", async () => {
    const { deps, paymongo } = await setup();
    await expect(createPaymentLink(deps, caller("prj_b"), input("none-1"))).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    expect(paymongo.asked).toEqual([]);
  });

  it("leaves a payer's action on an account's test-mode link to the provider: the test helper refuses", async () => {
    const { deps } = await setup();
    const link = await createPaymentLink(deps, caller("prj_a", "test"), input("test-1"));
    expect(link.providerAccountId).toBe("pa_test");
    await expect(simulatePaymentLinkPayment(deps, caller("prj_a", "test"), link._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });

  it("is paid once when the provider reports it paid, whatever the number of reports", async () => {
    const { deps, subjectsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-2"));
    expect(await applyProviderLinkPayment(deps, "pa_live", link._id)).toBe(true);
    expect(await applyProviderLinkPayment(deps, "pa_live", link._id)).toBe(false);
    expect(await deps.repository.findByIdForPage(link._id)).toMatchObject({ status: "paid", aggregateVersion: 2 });
    expect(await subjectsOf(link._id)).toEqual(["bayad.events.links.payment_link.active", "bayad.events.links.payment_link.paid"]);
  });

  it("archives and unarchives the link at the provider with the Bayad link", async () => {
    const { deps, archiveCalls } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-5"));
    expect(await setPaymentLinkArchived(deps, caller(), link._id, true)).toMatchObject({ status: "archived" });
    expect(await setPaymentLinkArchived(deps, caller(), link._id, false)).toMatchObject({ status: "active" });
    // Asking for the state it has asks the provider nothing.
    await setPaymentLinkArchived(deps, caller(), link._id, false);
    expect(archiveCalls).toEqual([
      ["link_pm1", true],
      ["link_pm1", false],
    ]);
  });

  it("refuses to archive a link the provider was paid for, and marks it paid instead of hiding the payment", async () => {
    const { deps, atPaymongo, archiveCalls, subjectsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-6"));
    atPaymongo.set(link.providerReference, { paid: true, archived: false });
    await expect(setPaymentLinkArchived(deps, caller(), link._id, true)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await deps.repository.findByIdForPage(link._id)).toMatchObject({ status: "paid" });
    expect(archiveCalls).toEqual([]);
    expect(await subjectsOf(link._id)).toEqual(["bayad.events.links.payment_link.active", "bayad.events.links.payment_link.paid"]);
  });

  it("answers PROVIDER_NOT_CONFIGURED for archiving a link whose account is gone, and changes nothing", async () => {
    const { deps } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-7"));
    await deps.repository.collection.updateOne({ _id: link._id }, { $set: { providerAccountId: "gone_account" } });
    await expect(setPaymentLinkArchived(deps, caller(), link._id, true)).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    expect(await deps.repository.findByIdForPage(link._id)).toMatchObject({ status: "active" });
  });

  it("ignores a report from another account, and leaves an archived link archived", async () => {
    const { deps } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-3"));
    expect(await applyProviderLinkPayment(deps, "pa_other", link._id)).toBe(false);
    await setPaymentLinkArchived(deps, caller(), link._id, true);
    expect(await applyProviderLinkPayment(deps, "pa_live", link._id)).toBe(false);
    expect(await deps.repository.findByIdForPage(link._id)).toMatchObject({ status: "archived" });
  });

  it("lists for the reconciler the active links of provider accounts made before a time, by id, page by page", async () => {
    const { deps } = await setup();
    const made = [];
    for (const reference of ["r-1", "r-2", "r-3"]) made.push(await createPaymentLink(deps, caller(), input(reference)));
    const sandboxLink = await createPaymentLink(deps, caller("prj_b", "test"), input("sandbox-1"));
    await applyProviderLinkPayment(deps, "pa_live", made[1]!._id);
    const ids = made.filter((_, index) => index !== 1).map((link) => link._id).sort();

    const later = new Date(Date.now() + 60_000);
    const firstPage = await deps.repository.findActiveAtProviders(later, undefined, 1);
    const secondPage = await deps.repository.findActiveAtProviders(later, firstPage[0]!._id, 5);
    expect([...firstPage, ...secondPage].map((link) => link._id)).toEqual(ids);
    expect(secondPage.map((link) => link._id)).not.toContain(sandboxLink._id);
    expect(await deps.repository.findActiveAtProviders(new Date(0), undefined, 5)).toEqual([]);
  });
});
