import { describe, expect, it } from "vitest";
import { AppError, createLogger } from "@bayad/kit";
import type { HostedPaymentRequest, PaymentProvider, ProviderAccounts } from "@bayad/provider";
import { billingFixture, caller, eventTypes, expectOneEventPerChange, mutating, sandbox } from "../test-support/billing-fixture.js";
import { createPlan } from "../plans/plans.js";
import { createSubscription, getSubscription, listSubscriptionInvoices } from "../subscriptions/subscriptions.js";
import { applyProviderInvoicePayment, getHostedInvoice, simulateInvoiceOutcome } from "./invoices.js";
import { moveInvoice } from "./invoice-writes.js";
import { closeVoidedInvoicesAtProvider } from "./voided-at-provider.js";

/** A provider account's adapter as billing sees it: a PayMongo link per invoice, no simulated payer actions. */
function paymongoLike() {
  const asked: HostedPaymentRequest[] = [];
  const provider: PaymentProvider = {
    ...sandbox(),
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
  // prj_a has an account in both modes; prj_b has none.
  const accounts: ProviderAccounts = {
    async forProject(projectId, environment) {
      return projectId === "prj_a" ? { providerAccountId: `pa_${environment}`, provider } : undefined;
    },
    async forAccount(providerAccountId) {
      return providerAccountId.startsWith("pa_") ? provider : undefined;
    },
  };
  return { accounts, asked, provider };
}

async function liveSubscription(projectId = "prj_a") {
  const paymongo = paymongoLike();
  const fixture = await billingFixture({ accounts: paymongo.accounts });
  const plan = await createPlan(fixture.deps, mutating(projectId, "live"), { name: "Gold", amountMinor: 49_900, interval: "weekly" });
  const subscription = await createSubscription(fixture.deps, mutating(projectId, "live"), { customerId: "cus_1", referenceId: "member-1", priceId: plan._id });
  const [invoice] = await listSubscriptionInvoices(fixture.deps, caller(projectId, "live"), subscription._id);
  return { fixture, paymongo, subscription, invoice: invoice! };
}

describe("invoices of a project's provider account", () => {
  it("makes a live invoice's hosted payment at the project's account and keeps the account", async () => {
    const { paymongo, invoice } = await liveSubscription();
    expect(invoice).toMatchObject({ status: "open", providerAccountId: "pa_live", providerReference: "link_pm1", hostedInvoiceUrl: "https://pm.link/shop/R000001" });
    expect(paymongo.asked).toEqual([expect.objectContaining({ kind: "invoice", resourceId: invoice._id, amount: { amountMinor: 49_900, currency: "PHP" } })]);
  });

  it("answers PROVIDER_NOT_CONFIGURED for a live subscription of a project without an account, before writing", async () => {
    const paymongo = paymongoLike();
    const fixture = await billingFixture({ accounts: paymongo.accounts });
    const plan = await createPlan(fixture.deps, mutating("prj_b", "live"), { name: "Gold", amountMinor: 49_900, interval: "weekly" });
    await expect(
      createSubscription(fixture.deps, mutating("prj_b", "live"), { customerId: "cus_1", referenceId: "member-1", priceId: plan._id }),
    ).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    expect(await fixture.deps.subscriptions.collection.count({})).toBe(0);
  });

  it("is paid once when the provider reports it paid, and the subscription becomes active", async () => {
    const { fixture, subscription, invoice } = await liveSubscription();
    expect(await applyProviderInvoicePayment(fixture.deps, "pa_live", invoice._id)).toBe(true);
    expect(await applyProviderInvoicePayment(fixture.deps, "pa_live", invoice._id)).toBe(false);
    expect(await getSubscription(fixture.deps, caller("prj_a", "live"), subscription._id)).toMatchObject({ status: "active" });
    expect(await eventTypes(fixture, invoice._id)).toEqual(["billing.invoice.draft", "billing.invoice.open", "billing.invoice.paid"]);
    await expectOneEventPerChange(fixture);
  });

  it("ignores a report from another account; the sandbox's page and helper do not apply to it", async () => {
    const { fixture, invoice } = await liveSubscription();
    expect(await applyProviderInvoicePayment(fixture.deps, "pa_other", invoice._id)).toBe(false);
    await expect(getHostedInvoice(fixture.deps, invoice._id, "")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(simulateInvoiceOutcome(fixture.deps, mutating("prj_a", "live"), invoice._id, "pay")).rejects.toMatchObject({ code: "TEST_MODE_ONLY" });
    expect((await fixture.deps.invoices.findByIdUnscoped(invoice._id))?.status).toBe("open");
  });

  it("lists for the reconciler the open and past-due invoices of provider accounts made before a time", async () => {
    const { fixture, invoice } = await liveSubscription();
    const made = invoice.createdAt.getTime();
    expect(await fixture.deps.invoices.findUnpaidAtProviders(new Date(made), undefined, 10)).toEqual([]);
    const later = new Date(made + 60_000);
    expect((await fixture.deps.invoices.findUnpaidAtProviders(later, undefined, 10)).map((one) => one._id)).toEqual([invoice._id]);
    expect(await fixture.deps.invoices.findUnpaidAtProviders(later, invoice._id, 10)).toEqual([]);
    await applyProviderInvoicePayment(fixture.deps, "pa_live", invoice._id);
    expect(await fixture.deps.invoices.findUnpaidAtProviders(later, undefined, 10)).toEqual([]);
  });
});

describe("the hosted payments of voided invoices", () => {
  async function voided(paidAtProvider: boolean) {
    const { fixture, invoice, paymongo } = await liveSubscription();
    const lines: string[] = [];
    fixture.deps.logger = createLogger("test", "info", { write: (line: string) => void lines.push(line) });
    await fixture.store.transaction(async (session) => moveInvoice(fixture.deps, session, (await fixture.deps.invoices.findByIdUnscoped(invoice._id, session))!, "void"));
    const closedAt: string[] = [];
    // The account's adapter closes (archives or expires) what is open, and answers paid what was paid.
    const provider: PaymentProvider = {
      ...paymongo.provider,
      async closeHostedPayment(reference) {
        const base = { amountMinor: 49_900, currency: "PHP" };
        if (paidAtProvider) return { status: "paid", ...base, providerPaymentId: "pay_9" };
        closedAt.push(reference);
        return { status: "expired", ...base };
      },
    };
    const accounts: Pick<ProviderAccounts, "forAccount"> = { forAccount: async (id) => (id === "pa_live" ? provider : undefined) };
    return { fixture, invoice, accounts, closedAt, lines };
  }

  it("closes the hosted payment of a voided invoice at the provider once", async () => {
    const { fixture, invoice, accounts, closedAt, lines } = await voided(false);
    expect(await closeVoidedInvoicesAtProvider(fixture.deps, accounts)).toBe(1);
    expect(await closeVoidedInvoicesAtProvider(fixture.deps, accounts)).toBe(0);
    expect(closedAt).toEqual([invoice.providerReference]);
    expect(await fixture.deps.invoices.findByIdUnscoped(invoice._id)).toMatchObject({ status: "void", providerLinkArchived: true });
    expect(lines.join("")).not.toMatch(/"level":50/);
  });

  it("logs an error naming the payment when a voided invoice was paid at the provider, and leaves it void", async () => {
    const { fixture, invoice, accounts, closedAt, lines } = await voided(true);
    expect(await closeVoidedInvoicesAtProvider(fixture.deps, accounts)).toBe(1);
    expect(closedAt).toEqual([]);
    const error = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.level === 50);
    expect(error).toMatchObject({ invoiceId: invoice._id, providerPaymentId: "pay_9" });
    expect((await fixture.deps.invoices.findByIdUnscoped(invoice._id))?.status).toBe("void");
    expect(await closeVoidedInvoicesAtProvider(fixture.deps, accounts)).toBe(0);
  });

  it("marks done, with a warning, a voided invoice whose account is gone", async () => {
    const { fixture, invoice, closedAt } = await voided(false);
    expect(await closeVoidedInvoicesAtProvider(fixture.deps, { forAccount: async () => undefined })).toBe(0);
    expect(closedAt).toEqual([]);
    expect(await fixture.deps.invoices.findByIdUnscoped(invoice._id)).toMatchObject({ providerLinkArchived: true });
  });
});
