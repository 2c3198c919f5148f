import { describe, expect, it } from "vitest";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseProject, openDashboardPath, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * The dashboard's billing pages in Chromium, against a started platform: a payment link, a plan
 * and a subscription made through the API appear in their lists and details, with the
 * subscription's invoice and the invoice's detail; a trialing subscription shows its trial end and a
 * scheduled plan change.
 */

describe.skipIf(!chromiumReady("the dashboard billing tests"))(`dashboard: billing in Chromium (${skipReason})`, () => {
  const suite = browserSuite();



  it("lists a payment link, a plan and a subscription made through the API, with their details and invoices", async () => {
    const project = await suite.api.newProject(unique("Dashboard billing"));
    const credential = project.testKey;
    const link = await suite.api.request("POST", "/api/v1/payments/payment-links", {
      body: { referenceId: unique("deposit"), amount: { amountMinor: 1250_50, currency: "PHP" }, description: "Catering deposit" },
      credential,
    });
    expect(link.status).toBe(201);
    const plan = await suite.api.request("POST", "/api/v1/payments/plans", {
      body: { name: "Gold membership", amount: 499_00, interval: "monthly", cycleCount: 12 },
      credential,
    });
    expect(plan.status).toBe(201);
    const customer = await suite.api.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("member"), email: "member@example.ph" },
      credential,
    });
    const referenceId = unique("membership");
    const subscription = await suite.api.request("POST", "/api/v1/payments/subscriptions", {
      body: { customerId: customer.body.data.customerId, referenceId, priceId: plan.body.data.planId },
      credential,
    });
    expect(subscription.status).toBe(201);
    const subscriptionId = subscription.body.data.subscriptionId as string;
    const invoices = await suite.api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`, { credential });
    const invoiceId = invoices.body.data[0].invoiceId as string;
    // The records feed follows the calls by moments: wait until it lists the subscription.
    await eventually(async () => {
      const feed = await suite.api.request("GET", "/api/v1/payments/records?type=subscription", { credential });
      return (feed.body.data.records as Array<{ id: string }>).some((record) => record.id === subscriptionId) ? true : undefined;
    });

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);

      // Payment links: the list, then the link's detail.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payment links" }).click();
      const linkRow = page.getByRole("table", { name: "Payment links" }).getByRole("row").filter({ hasText: link.body.data.paymentLinkId });
      await linkRow.filter({ hasText: "₱1,250.50" }).filter({ hasText: "Catering deposit" }).waitFor();
      await linkRow.click();
      await page.getByRole("heading", { name: "Payment link" }).waitFor();
      const linkFields = page.getByLabel("Payment link", { exact: true });
      await linkFields.getByText("₱1,250.50").waitFor();
      await linkFields.getByRole("link", { name: link.body.data.url }).waitFor();

      // Plans: the list, then the plan's detail.
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Plans" }).click();
      const planRow = page.getByRole("table", { name: "Plans" }).getByRole("row").filter({ hasText: "Gold membership" });
      await planRow.filter({ hasText: "₱499.00" }).filter({ hasText: "every month" }).waitFor();
      await planRow.click();
      await page.getByRole("heading", { name: "Gold membership" }).waitFor();
      await page.getByText("₱499.00 every month, 12 periods").waitFor();

      // Subscriptions (from the records feed): filtered by reference, then the detail.
      await openDashboardPath(page, suite.base, "/subscriptions");
      await page.getByRole("table", { name: "Subscriptions" }).getByRole("row").filter({ hasText: subscriptionId }).waitFor();
      await page.getByRole("searchbox", { name: "Reference" }).fill(referenceId);
      await page.getByRole("button", { name: "Filter" }).click();
      const subscriptionRow = page.getByRole("table", { name: "Subscriptions" }).getByRole("row").filter({ hasText: subscriptionId });
      await subscriptionRow.filter({ hasText: referenceId }).filter({ hasText: "pending" }).waitFor();
      expect(await page.getByRole("table", { name: "Subscriptions" }).getByRole("row").count()).toBe(2); // the header and the subscription
      await subscriptionRow.click();
      await page.getByRole("heading", { name: "Subscription" }).waitFor();
      await page.getByLabel("Subscription", { exact: true }).getByText(referenceId).waitFor();

      // Its invoice, then the invoice's detail.
      const invoiceRow = page.getByRole("table", { name: "Invoices" }).getByRole("row").filter({ hasText: invoiceId });
      await invoiceRow.filter({ hasText: "₱499.00" }).waitFor();
      await invoiceRow.click();
      await page.getByRole("heading", { name: "Invoice" }).waitFor();
      const invoiceFields = page.getByLabel("Invoice", { exact: true });
      await invoiceFields.getByText(invoiceId, { exact: true }).waitFor();
      await invoiceFields.getByText("₱499.00").waitFor();
      await invoiceFields.getByRole("link", { name: invoices.body.data[0].hostedInvoiceUrl }).waitFor();
      await invoiceFields.getByRole("link", { name: "Open subscription" }).waitFor();
    });
  }, 60_000);

  it("shows a subscription's trial end and the plan change scheduled for its period's end", async () => {
    const project = await suite.api.newProject(unique("Dashboard trials"));
    const credential = project.testKey;
    const plan = async (name: string) => {
      const created = await suite.api.request("POST", "/api/v1/payments/plans", { body: { name, amount: 499_00, interval: "monthly", trialDays: 14 }, credential });
      expect(created.status).toBe(201);
      return created.body.data.planId as string;
    };
    const [basic, gold] = [await plan("Basic"), await plan("Gold")];
    const customer = await suite.api.request("POST", "/api/v1/payments/customers", { body: { customerReference: unique("member"), email: "member@example.ph" }, credential });
    const subscription = await suite.api.request("POST", "/api/v1/payments/subscriptions", {
      body: { customerId: customer.body.data.customerId, referenceId: unique("membership"), priceId: basic },
      credential,
    });
    expect(subscription.body.data.status).toBe("trialing");
    const subscriptionId = subscription.body.data.subscriptionId as string;
    const changed = await suite.api.request("POST", `/api/v1/payments/subscriptions/${subscriptionId}/change-plan`, {
      body: { priceId: gold, prorate: "at_period_end" },
      credential,
    });
    expect(changed.status).toBe(200);

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, `/subscriptions/${subscriptionId}`);
      const fields = page.getByLabel("Subscription", { exact: true });
      await fields.getByText("Trialing").waitFor();
      await fields.getByText("Trial ends").waitFor();
      await fields.getByText("Plan change").waitFor();
      await fields.getByText(gold).waitFor();
    });
  }, 60_000);
});
