import { describe, expect, it } from "vitest";
import { eventually, unique } from "../test-support/harness.js";
import { xenditLiveSuite } from "../test-support/xendit-live.js";

/**
 * Payment links and invoices in live mode on a project holding only a Xendit account, end to end
 * against the Xendit simulator: their hosted payments are Xendit invoices (the link's URL is the
 * invoice's page), found paid by the links and billing services' reconcilers reading Xendit (the
 * invoice's callback reaches the payments service, which takes it and leaves it be), and closed
 * at Xendit (the invoice expired) when the link is archived.
 */
describe("payment links and invoices in live mode on a Xendit-only project", () => {
  const suite = xenditLiveSuite({ project: "Xendit shop" });
  const { live } = suite;

  /** The invoice's id at Xendit: the last part of its page's URL (`/web/{id}`). */
  const invoiceIdOf = (url: string) => {
    const page = new URL(url);
    expect(page.origin).toBe(new URL(suite.xendit.url).origin);
    expect(page.pathname).toMatch(/^\/web\/[0-9a-f]{24}$/);
    return page.pathname.split("/").pop()!;
  };

  /** The link as the links service stores it (the provider's references are not in the API's answer). */
  const storedLink = (linkId: string) => suite.api.platform.stores.links.collection<{ _id: string } & Record<string, unknown>>({ name: "payment_links" }).findOne({ _id: linkId });

  /** How the payments service took Xendit's callbacks about an invoice (stored, then applied). */
  async function callbackStatesOf(invoiceId: string) {
    const events = suite.api.platform.stores.payments.collection<{ _id: string; eventId: string; state: string; providerAccountId: string }>({ name: "provider_events" });
    return (await events.find({ providerAccountId: suite.account.providerAccountId })).filter((event) => event.eventId.includes(invoiceId)).map((event) => event.state);
  }

  it("makes a live payment link as a Xendit invoice, marks it paid once the payer pays it there, and takes Xendit's callback without acting on it", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("xendit-link"),
      amount: { amountMinor: 350_00, currency: "PHP" },
      description: "Yoga class, 10 sessions",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const link = created.body.data;
    expect(link.status).toBe("active");
    const invoiceId = invoiceIdOf(link.url as string);
    expect(suite.xendit.find(invoiceId)).toMatchObject({ external_id: link.paymentLinkId, amount: 350, currency: "PHP", status: "PENDING", invoice_url: link.url });

    suite.xendit.payInvoice(invoiceId, "GCASH");
    const paid = await eventually(async () => {
      const read = await live("GET", `/api/v1/payments/payment-links/${link.paymentLinkId}`);
      return read.body.data.status === "paid" ? read.body.data : undefined;
    }, 20_000);
    expect(paid).toMatchObject({ url: link.url, referenceNumber: link.referenceNumber });
    // What refunds of the link will name at Xendit: the invoice (by invoice_id) and its channel.
    expect(await storedLink(link.paymentLinkId as string)).toMatchObject({
      providerAccountId: suite.account.providerAccountId,
      providerReference: invoiceId,
      providerPayment: { providerPaymentId: invoiceId, method: "GCASH" },
    });

    // Xendit's paid callback (the flat invoice) reached the payments service, which answered 2xx and left the link to the links service.
    const delivered = await eventually(async () =>
      suite.xendit.deliveries().find((delivery) => delivery.event === "invoice.paid" && delivery.url === suite.account.callbackUrl && delivery.status !== undefined),
    );
    expect(delivered.status).toBe(200);
    expect(await eventually(async () => ((await callbackStatesOf(invoiceId)).some((state) => state !== "received") ? callbackStatesOf(invoiceId) : undefined))).toEqual(["ignored"]);
  });

  it("expires the link's invoice at Xendit when it is archived, and gives the link a new invoice (a new URL) when unarchived", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("xendit-archived"),
      amount: { amountMinor: 180_00, currency: "PHP" },
      description: "Workshop seat",
    });
    const link = created.body.data;
    const first = invoiceIdOf(link.url as string);

    const archived = await live("PATCH", `/api/v1/payments/payment-links/${link.paymentLinkId}`, { archive: true });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ status: "archived", url: link.url });
    expect(suite.xendit.find(first)).toMatchObject({ status: "EXPIRED" });
    expect(() => suite.xendit.payInvoice(first)).toThrow(/EXPIRED/);

    const restored = await live("PATCH", `/api/v1/payments/payment-links/${link.paymentLinkId}`, { archive: false });
    expect(restored.status).toBe(200);
    expect(restored.body.data.status).toBe("active");
    const second = invoiceIdOf(restored.body.data.url as string);
    expect(second).not.toBe(first);
    expect(suite.xendit.find(second)).toMatchObject({ external_id: link.paymentLinkId, amount: 180, status: "PENDING" });

    // The new invoice is the one read back: paid there, the link is paid.
    suite.xendit.payInvoice(second);
    await eventually(async () => ((await live("GET", `/api/v1/payments/payment-links/${link.paymentLinkId}`)).body.data.status === "paid" ? true : undefined), 20_000);
    expect(await storedLink(link.paymentLinkId as string)).toMatchObject({ providerReference: second, providerPayment: { providerPaymentId: second } });
  });

  it("makes a live invoice's hosted payment a Xendit invoice and marks the invoice and the subscription paid once it is paid there", async () => {
    const plan = await live("POST", "/api/v1/payments/plans", { name: "Gold membership", amount: 499_00, interval: "monthly" });
    expect(plan.status).toBe(201);
    const customer = await live("POST", "/api/v1/payments/customers", { customerReference: unique("member"), email: "member@example.ph" });
    expect(customer.status).toBe(201);
    const subscribed = await live("POST", "/api/v1/payments/subscriptions", {
      customerId: customer.body.data.customerId,
      referenceId: unique("membership"),
      priceId: plan.body.data.planId,
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
    const subscriptionId = subscribed.body.data.subscriptionId as string;
    const [invoice] = (await live("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data as Array<Record<string, any>>;
    expect(invoice).toMatchObject({ status: "open" });
    const invoiceId = invoiceIdOf(invoice!.hostedInvoiceUrl as string);
    expect(suite.xendit.find(invoiceId)).toMatchObject({ external_id: invoice!.invoiceId, amount: 499, status: "PENDING" });

    suite.xendit.payInvoice(invoiceId);
    await eventually(async () => ((await live("GET", `/api/v1/payments/invoices/${invoice!.invoiceId}`)).body.data.status === "paid" ? true : undefined), 20_000);
    expect((await live("GET", `/api/v1/payments/subscriptions/${subscriptionId}`)).body.data.status).toBe("active");
  });
});
