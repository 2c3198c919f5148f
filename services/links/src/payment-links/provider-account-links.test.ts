import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { createOutbox, outboxCollection, type OutboxRecord } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider, type HostedPaymentRequest, type PaymentProvider, type ProviderAccounts } from "@bayad/provider";
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
 * A provider account's adapter as links see it: its own hosted pages (reference number and URL,
 * no page token), closed and reopened there, and no simulated payer actions. PayMongo-like
 * reopens the same page; Xendit-like (an expired invoice cannot be paid again) makes a new one.
 */
function providerLike(name: "paymongo" | "xendit") {
  const asked: HostedPaymentRequest[] = [];
  // The provider's side of its pages: paid or not, closed or not, and what was asked.
  const pages = new Map<string, { paid: boolean; closed: boolean }>();
  const calls: Array<[string, "close" | "reopen"]> = [];
  const prefix = name === "paymongo" ? "link_pm" : "inv_x";
  const newPage = (request: HostedPaymentRequest) => {
    asked.push(request);
    const reference = `R${String(asked.length).padStart(6, "0")}`;
    pages.set(`${prefix}${asked.length}`, { paid: false, closed: false });
    return { providerReference: `${prefix}${asked.length}`, referenceNumber: reference, url: `https://${name}.example/${reference}`, pageToken: "" };
  };
  const pageAt = (id: string) => pages.get(id) ?? { paid: false, closed: false };
  const provider: PaymentProvider = {
    ...createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 }),
    name,
    createHostedPayment: async (request) => newPage(request),
    async closeHostedPayment(id) {
      calls.push([id, "close"]);
      const base = { amountMinor: 350_00, currency: "PHP" };
      if (pageAt(id).paid) return { status: "paid", ...base, providerPaymentId: "pay_1", method: "gcash" };
      pages.set(id, { ...pageAt(id), closed: true });
      return { status: "expired", ...base };
    },
    async reopenHostedPayment(request, id) {
      calls.push([id, "reopen"]);
      if (name === "xendit") return newPage(request);
      pages.set(id, { ...pageAt(id), closed: false });
      const number = Number(id.slice(prefix.length));
      return { providerReference: id, referenceNumber: `R${String(number).padStart(6, "0")}`, url: `https://${name}.example/R${String(number).padStart(6, "0")}`, pageToken: "" };
    },
    decidePayment() {
      throw new AppError("INVALID_STATE_TRANSITION", "Payer actions are simulated only in the sandbox.");
    },
  };
  return { provider, asked, pages, calls };
}

async function setup() {
  const store = createTestStore();
  const paymongo = providerLike("paymongo");
  const xendit = providerLike("xendit");
  // prj_a has a PayMongo account in both modes; prj_x a Xendit one in live mode; prj_b none.
  const accounts: ProviderAccounts = {
    async forProject(projectId, environment) {
      if (projectId === "prj_a") return { providerAccountId: `pa_${environment}`, provider: paymongo.provider };
      if (projectId === "prj_x" && environment === "live") return { providerAccountId: "px_live", provider: xendit.provider };
      return undefined;
    },
    async forAccount(providerAccountId) {
      return providerAccountId.startsWith("pa_") ? paymongo.provider : providerAccountId === "px_live" ? xendit.provider : undefined;
    },
  };
  const deps: PaymentLinksDeps = {
    store,
    repository: createPaymentLinksRepository(store),
    outbox: createOutbox(store, "links"),
    providers: { test: createSandboxProvider({ secret: "s", delayMs: 0, silenceMs: 0 }), accounts },
    now: () => new Date(),
    keys: createIdempotencyKeys(store, { windowMs: 86_400_000 }),
  };
  await store.ensureIndexes();
  const outbox = store.collection<OutboxRecord>(outboxCollection);
  const subjectsOf = async (resourceId: string) => (await outbox.find({ resourceId }, { sort: { aggregateVersion: 1 } })).map((e) => e.subject);
  return { deps, paymongo, xendit, subjectsOf };
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
      url: "https://paymongo.example/R000001",
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

  it("archives and unarchives the link at the provider with the Bayad link: PayMongo's same page", async () => {
    const { deps, paymongo } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-5"));
    expect(await setPaymentLinkArchived(deps, caller(), link._id, true)).toMatchObject({ status: "archived" });
    expect(paymongo.pages.get("link_pm1")).toEqual({ paid: false, closed: true });
    expect(await setPaymentLinkArchived(deps, caller(), link._id, false)).toMatchObject({
      status: "active",
      providerReference: "link_pm1",
      url: link.url,
      referenceNumber: link.referenceNumber,
    });
    // Asking for the state it has asks the provider nothing.
    await setPaymentLinkArchived(deps, caller(), link._id, false);
    expect(paymongo.calls).toEqual([
      ["link_pm1", "close"],
      ["link_pm1", "reopen"],
    ]);
  });

  it("expires a Xendit link's invoice when archived, and gives the link a new invoice (a new URL) when unarchived", async () => {
    const { deps, xendit, subjectsOf } = await setup();
    const link = await createPaymentLink(deps, caller("prj_x"), input("xendit-1"));
    expect(link).toMatchObject({ providerAccountId: "px_live", providerReference: "inv_x1", url: "https://xendit.example/R000001" });
    expect(await setPaymentLinkArchived(deps, caller("prj_x"), link._id, true)).toMatchObject({ status: "archived", providerReference: "inv_x1" });
    expect(xendit.pages.get("inv_x1")).toEqual({ paid: false, closed: true });

    const restored = await setPaymentLinkArchived(deps, caller("prj_x"), link._id, false);
    expect(restored).toMatchObject({ status: "active", providerReference: "inv_x2", url: "https://xendit.example/R000002", referenceNumber: "R000002", pageToken: "" });
    expect(await deps.repository.findByIdForPage(link._id)).toMatchObject({ providerReference: "inv_x2", url: "https://xendit.example/R000002" });
    expect(xendit.asked.map((request) => [request.kind, request.resourceId, request.amount.amountMinor])).toEqual([
      ["payment_link", link._id, 350_00],
      ["payment_link", link._id, 350_00],
    ]);
    // One event per change: the unarchive's is the link active again (with its new page).
    expect(await subjectsOf(link._id)).toEqual([
      "bayad.events.links.payment_link.active",
      "bayad.events.links.payment_link.archived",
      "bayad.events.links.payment_link.active",
    ]);
    // The reconciler reads the new invoice from now on.
    const later = new Date(Date.now() + 60_000);
    expect((await deps.repository.findActiveAtProviders(later, undefined, 10)).map((one) => one.providerReference)).toEqual(["inv_x2"]);
  });

  it("refuses to archive a link the provider was paid for, and marks it paid with the provider's payment instead of hiding it", async () => {
    const { deps, paymongo, subjectsOf } = await setup();
    const link = await createPaymentLink(deps, caller(), input("yoga-6"));
    paymongo.pages.set(link.providerReference, { paid: true, closed: false });
    await expect(setPaymentLinkArchived(deps, caller(), link._id, true)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await deps.repository.findByIdForPage(link._id)).toMatchObject({ status: "paid", providerPayment: { providerPaymentId: "pay_1", method: "gcash" } });
    expect(paymongo.pages.get(link.providerReference)).toEqual({ paid: true, closed: false });
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
