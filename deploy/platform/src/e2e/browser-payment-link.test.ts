import { describe, expect, it } from "vitest";
import { unique } from "../test-support/harness.js";
import { browserSuite, chromiumReady, payInBrowser, skipReason } from "../test-support/browser.js";

const links = "/api/v1/payments/payment-links";

describe.skipIf(!chromiumReady("the browser payment-link tests"))(`hosted payment-link and invoice pages in a real browser (${skipReason})`, () => {
  const suite = browserSuite();

  it("pays a payment link through its hosted page, and the link reads paid", async () => {
    const created = await suite.api.request("POST", links, {
      body: {
        referenceId: unique("browser-link"),
        amount: { amountMinor: 1250_50, currency: "PHP" },
        description: "Catering deposit",
        remarks: "Due Friday",
      },
    });
    expect(created.status).toBe(201);
    const link = created.body.data as { paymentLinkId: string; url: string; referenceNumber: string };

    const outcome = await suite.browser.withPage((page) => payInBrowser(page, link.url, "₱1,250.50", "payment-link-page.png"));
    expect(outcome).toEqual({ result: "Payment successful", status: "paid" });

    const read = await suite.api.request("GET", `${links}/${link.paymentLinkId}`);
    expect(read.body.data).toMatchObject({ status: "paid", active: false, archived: false, referenceNumber: link.referenceNumber });

    // The link collects one payment: its page no longer offers to pay.
    const again = await suite.browser.withPage(async (page) => {
      await page.goto(link.url);
      return { pay: await page.locator("#pay").count(), status: await page.locator("#status").textContent() };
    });
    expect(again).toEqual({ pay: 0, status: "paid" });
  }, 30_000);

  it("an archived link's page cannot be paid", async () => {
    const created = await suite.api.request("POST", links, {
      body: { referenceId: unique("browser-archived"), amount: { amountMinor: 500_00, currency: "PHP" }, description: "Archived" },
    });
    const link = created.body.data as { paymentLinkId: string; url: string };
    await suite.api.request("PATCH", `${links}/${link.paymentLinkId}`, { body: { archive: true } });
    const shown = await suite.browser.withPage(async (page) => {
      await page.goto(link.url);
      return { pay: await page.locator("#pay").count(), status: await page.locator("#status").textContent() };
    });
    expect(shown).toEqual({ pay: 0, status: "archived" });
  }, 30_000);

  it("pays a subscription's first invoice on its hosted page, and the subscription becomes active", async () => {
    const plan = await suite.api.request("POST", "/api/v1/payments/plans", {
      body: { name: "Browser plan", amount: 299_00, interval: "monthly" },
    });
    const customer = await suite.api.request("POST", "/api/v1/payments/customers", {
      body: { customerReference: unique("browser"), email: "browser@example.ph" },
    });
    const subscription = await suite.api.request("POST", "/api/v1/payments/subscriptions", {
      body: { customerId: customer.body.data.customerId, referenceId: unique("browser-sub"), priceId: plan.body.data.planId },
    });
    expect(subscription.status).toBe(201);
    const subscriptionId = subscription.body.data.subscriptionId as string;
    const invoices = await suite.api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`);
    const invoice = invoices.body.data[0] as { invoiceId: string; hostedInvoiceUrl: string };

    const outcome = await suite.browser.withPage((page) => payInBrowser(page, invoice.hostedInvoiceUrl, "₱299.00", "invoice-page.png"));
    expect(outcome).toEqual({ result: "Payment successful", status: "paid" });
    expect((await suite.api.request("GET", `/api/v1/payments/invoices/${invoice.invoiceId}`)).body.data.status).toBe("paid");
    expect((await suite.api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}`)).body.data.status).toBe("active");
  }, 30_000);
});
