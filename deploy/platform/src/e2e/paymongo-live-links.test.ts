import { describe, expect, it } from "vitest";
import { eventually, expectError, unique } from "../test-support/harness.js";
import { paymongoLiveSuite } from "../test-support/paymongo-live.js";

/**
 * Payment links and invoices in live mode, end to end against the PayMongo simulator: a project
 * with a live PayMongo account gets its payment links and its invoices' hosted payments made as
 * PayMongo links (PayMongo's reference number and checkout URL), and when a payer pays one at
 * PayMongo, the links or billing service finds it paid by reading PayMongo (PayMongo's
 * `link.payment.paid` goes to the payments service's webhook, which cannot move links or invoices).
 */
describe("payment links and invoices in live mode on PayMongo", () => {
  const suite = paymongoLiveSuite({ project: "Live shop", paymentMethodTypes: ["gcash", "qrph", "card"] });
  const { live, secretKey } = suite;


  /** The link PayMongo holds under `referenceNumber`, as the account's owner would look it up with its key. */
  async function paymongoLink(referenceNumber: string) {
    const auth = { Authorization: `Basic ${Buffer.from(`${secretKey}:`).toString("base64")}` };
    const response = await fetch(`${suite.sim.url}/v1/links?reference_number=${encodeURIComponent(referenceNumber)}`, { headers: auth });
    expect(response.status).toBe(200);
    const list = (await response.json()) as {
      data: Array<{ id: string; attributes: { amount: number; remarks: string | null; status: string; checkout_url: string; reference_number: string } }>;
    };
    expect(list.data).toHaveLength(1);
    return list.data[0]!;
  }

  async function feedRecord(id: string) {
    const page = await live("GET", "/api/v1/payments/records?limit=200");
    return (page.body.data.records as Array<{ id: string; status: string }>).find((record) => record.id === id);
  }

  it("makes a live payment link at PayMongo and marks it paid once the payer pays it there", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("live-link"),
      amount: { amountMinor: 350_00, currency: "PHP" },
      description: "Yoga class, 10 sessions",
      remarks: "Batch A",
    });
    expect(created.status).toBe(201);
    const link = created.body.data;
    expect(link.status).toBe("active");

    // The payer pays on PayMongo's page: the link's URL and reference number are PayMongo's, and
    // PayMongo's link names the Bayad link in its remarks, for the amount asked.
    expect(new URL(link.url as string).origin).toBe(new URL(suite.sim.url).origin);
    const atPaymongo = await paymongoLink(link.referenceNumber as string);
    expect(atPaymongo.attributes).toMatchObject({
      checkout_url: link.url,
      reference_number: link.referenceNumber,
      remarks: link.paymentLinkId,
      amount: 350_00,
      status: "unpaid",
    });
    // A payer's action is PayMongo's to decide: the sandbox's helper does not apply.
    expectError(await live("POST", `/api/v1/payments/test-helpers/payment-links/${link.paymentLinkId}/pay`), 403, "TEST_MODE_ONLY");

    await suite.sim.payLink(atPaymongo.id);
    await suite.sim.flushDeliveries();
    // PayMongo tells the payments service's webhook, which takes the event (and leaves the link to the links service).
    const delivered = suite.sim.deliveries().filter((delivery) => delivery.type === "link.payment.paid" && delivery.url.endsWith(`/provider-webhooks/paymongo/${suite.providerAccountId}`));
    expect(delivered.at(-1)?.status).toBe(200);

    const paid = await eventually(async () => {
      const read = await live("GET", `/api/v1/payments/payment-links/${link.paymentLinkId}`);
      return read.body.data.status === "paid" ? read.body.data : undefined;
    }, 20_000);
    expect(paid).toMatchObject({ url: link.url, referenceNumber: link.referenceNumber });
    await eventually(async () => ((await feedRecord(link.paymentLinkId as string))?.status === "paid" ? true : undefined));

  });

  it("archives a live link at PayMongo too, so it cannot be paid there, and makes it payable again when unarchived", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("archived-link"),
      amount: { amountMinor: 180_00, currency: "PHP" },
      description: "Workshop seat",
    });
    const link = created.body.data;
    const atPaymongo = await paymongoLink(link.referenceNumber as string);

    const archived = await live("PATCH", `/api/v1/payments/payment-links/${link.paymentLinkId}`, { archive: true });
    expect(archived.status).toBe(200);
    expect(archived.body.data.status).toBe("archived");
    expect((suite.sim.find(atPaymongo.id) as { attributes: { archived: boolean } }).attributes.archived).toBe(true);
    await expect(suite.sim.payLink(atPaymongo.id)).rejects.toThrow(/archived/);

    const restored = await live("PATCH", `/api/v1/payments/payment-links/${link.paymentLinkId}`, { archive: false });
    expect(restored.body.data.status).toBe("active");
    expect((suite.sim.find(atPaymongo.id) as { attributes: { archived: boolean } }).attributes.archived).toBe(false);
    await suite.sim.payLink(atPaymongo.id);
    await eventually(async () => ((await live("GET", `/api/v1/payments/payment-links/${link.paymentLinkId}`)).body.data.status === "paid" ? true : undefined), 20_000);
  });

  it("refuses to archive a live link PayMongo has been paid for, and shows it paid", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("paid-then-archived"),
      amount: { amountMinor: 175_00, currency: "PHP" },
      description: "Book",
    });
    const link = created.body.data;
    await suite.sim.payLink((await paymongoLink(link.referenceNumber as string)).id);
    expectError(await live("PATCH", `/api/v1/payments/payment-links/${link.paymentLinkId}`, { archive: true }), 409, "INVALID_STATE_TRANSITION");
    expect((await live("GET", `/api/v1/payments/payment-links/${link.paymentLinkId}`)).body.data.status).toBe("paid");
  });

  it("leaves a live link active while PayMongo has it unpaid", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("unpaid-link"),
      amount: { amountMinor: 199_00, currency: "PHP" },
      description: "Sticker pack",
    });
    expect(created.status).toBe(201);
    const linkId = created.body.data.paymentLinkId as string;
    // Paid meanwhile: another link of the account, so at least one round ran over both.
    const other = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("paid-link"),
      amount: { amountMinor: 120_00, currency: "PHP" },
      description: "Tote bag",
    });
    await suite.sim.payLink((await paymongoLink(other.body.data.referenceNumber as string)).id);
    await eventually(async () => ((await live("GET", `/api/v1/payments/payment-links/${other.body.data.paymentLinkId}`)).body.data.status === "paid" ? true : undefined), 20_000);
    expect((await live("GET", `/api/v1/payments/payment-links/${linkId}`)).body.data.status).toBe("active");
  });

  it("makes a live invoice's hosted payment a PayMongo link and marks the invoice and the subscription paid once it is paid there", async () => {
    const plan = await live("POST", "/api/v1/payments/plans", { name: "Gold membership", amount: 499_00, interval: "monthly" });
    expect(plan.status).toBe(201);
    const customer = await live("POST", "/api/v1/payments/customers", { customerReference: unique("member"), email: "member@example.ph" });
    expect(customer.status).toBe(201);
    const subscribed = await live("POST", "/api/v1/payments/subscriptions", {
      customerId: customer.body.data.customerId,
      referenceId: unique("membership"),
      priceId: plan.body.data.planId,
    });
    expect(subscribed.status).toBe(201);
    const subscriptionId = subscribed.body.data.subscriptionId as string;
    const invoices = (await live("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data as Array<Record<string, any>>;
    expect(invoices).toHaveLength(1);
    const invoice = invoices[0]!;
    expect(invoice.status).toBe("open");

    // The invoice is paid on PayMongo's page: a PayMongo link for the period's amount, naming the invoice.
    const hosted = new URL(invoice.hostedInvoiceUrl as string);
    expect(hosted.origin).toBe(new URL(suite.sim.url).origin);
    const atPaymongo = await paymongoLink(hosted.pathname.split("/").pop()!);
    expect(atPaymongo.attributes).toMatchObject({ checkout_url: invoice.hostedInvoiceUrl, remarks: invoice.invoiceId, amount: 499_00, status: "unpaid" });

    await suite.sim.payLink(atPaymongo.id);
    await eventually(async () => ((await live("GET", `/api/v1/payments/invoices/${invoice.invoiceId}`)).body.data.status === "paid" ? true : undefined), 20_000);
    expect((await live("GET", `/api/v1/payments/subscriptions/${subscriptionId}`)).body.data.status).toBe("active");
    await eventually(async () => ((await feedRecord(invoice.invoiceId as string))?.status === "paid" ? true : undefined));
  });

  it("answers PROVIDER_NOT_CONFIGURED for a live link or subscription of a project without an account, and writes nothing", async () => {
    const other = await suite.api.newProject("No account");
    const before = await suite.api.platform.stores.links.collection({ name: "payment_links" }).count({});
    const response = await suite.api.request("POST", "/api/v1/payments/payment-links", {
      body: { referenceId: unique("no-account"), amount: { amountMinor: 100_00, currency: "PHP" }, description: "Anything" },
      credential: other.liveKey,
    });
    expectError(response, 409, "PROVIDER_NOT_CONFIGURED");
    expect(await suite.api.platform.stores.links.collection({ name: "payment_links" }).count({})).toBe(before);
  });
});
