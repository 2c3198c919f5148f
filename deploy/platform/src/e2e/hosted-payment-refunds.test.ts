import { describe, expect, it } from "vitest";
import { eventually, unique, type ApiResponse } from "../test-support/harness.js";
import { paymongoLiveSuite } from "../test-support/paymongo-live.js";

/**
 * Payment links and invoices paid on a hosted page are refundable through the public refunds API,
 * named by their own ids (`link_…`, `inv_…`): at PayMongo against the PayMongo payment that paid
 * them, in the sandbox as any test-mode refund.
 */
describe("refunds of paid payment links and invoices", () => {
  const suite = paymongoLiveSuite({ project: "Hosted refunds", paymentMethodTypes: ["gcash", "qrph", "card"] });
  const { live, test, ownerAuth: auth } = suite;


  /** The PayMongo link behind a Bayad link's or invoice's reference number, as the account's owner reads it. */
  async function paymongoLink(referenceNumber: string) {
    const response = await fetch(`${suite.sim.url}/v1/links?reference_number=${encodeURIComponent(referenceNumber)}`, { headers: auth });
    const list = (await response.json()) as { data: Array<{ id: string; attributes: { status: string } }> };
    expect(list.data).toHaveLength(1);
    return list.data[0]!;
  }

  async function paymongoRefunds(paymentId: string) {
    const list = (await (await fetch(`${suite.sim.url}/v1/refunds?payment_id=${paymentId}`, { headers: auth })).json()) as {
      data: Array<{ id: string; attributes: { amount: number; payment_id: string; metadata: Record<string, string> | null } }>;
    };
    return list.data;
  }

  /**
   * A refund of `paymentId`, asked until the paid link or invoice has reached the refunds (its
   * payment travels as an event: until it arrives the refund is 404).
   */
  async function refundOnceRefundable(call: typeof live, paymentId: string, amountMinor: number): Promise<ApiResponse> {
    return eventually(async () => {
      const response = await call("POST", "/api/v1/payments/refunds", { paymentId, amount: { amountMinor, currency: "PHP" }, reason: "requested_by_customer" });
      if (response.status === 404) return undefined;
      return response;
    }, 20_000);
  }

  it("refunds a live payment link paid at PayMongo against its PayMongo payment", async () => {
    const created = await live("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("refund-link"),
      amount: { amountMinor: 350_00, currency: "PHP" },
      description: "Yoga class, 10 sessions",
    });
    expect(created.status).toBe(201);
    const linkId = created.body.data.paymentLinkId as string;
    const atPaymongo = await paymongoLink(created.body.data.referenceNumber as string);
    const { paymentId } = await suite.sim.payLink(atPaymongo.id);
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/payment-links/${linkId}`)).body.data.status === "paid" ? true : undefined), 20_000);

    const refund = await refundOnceRefundable(live, linkId, 350_00);
    expect(refund.status).toBe(201);
    expect(refund.body.data).toMatchObject({ paymentId: linkId, status: "pending", amount: { amountMinor: 350_00, currency: "PHP" } });
    const refundId = refund.body.data.refundId as string;
    // PayMongo holds the refund against the pay_ that paid the link, made for this Bayad refund.
    const made = await eventually(async () => {
      const found = await paymongoRefunds(paymentId);
      return found.length === 1 ? found[0] : undefined;
    });
    expect(made!.attributes).toMatchObject({ payment_id: paymentId, amount: 350_00, metadata: { bayad_resource_id: refundId } });

    await suite.sim.settleRefund(made!.id, "succeeded");
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/refunds/${refundId}`)).body.data.status === "succeeded" ? true : undefined));
    // The link shows it was refunded in full, and stays paid; PayMongo's link reads refunded too.
    const refunded = await eventually(async () => {
      const read = (await live("GET", `/api/v1/payments/payment-links/${linkId}`)).body.data;
      return read.refunded === true ? read : undefined;
    });
    expect(refunded).toMatchObject({ status: "paid", refundedAmount: { amountMinor: 350_00, currency: "PHP" } });
    expect((suite.sim.find(atPaymongo.id) as { attributes: { status: string } }).attributes.status).toBe("refunded");
    // Nothing is left to refund of it.
    const again = await live("POST", "/api/v1/payments/refunds", { paymentId: linkId, amount: { amountMinor: 1_00, currency: "PHP" }, reason: "again" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
  });

  it("refunds a live invoice paid at PayMongo against its PayMongo payment", async () => {
    const plan = await live("POST", "/api/v1/payments/plans", { name: "Gold membership", amount: 499_00, interval: "monthly" });
    const customer = await live("POST", "/api/v1/payments/customers", { customerReference: unique("member"), email: "member@example.ph" });
    const subscribed = await live("POST", "/api/v1/payments/subscriptions", {
      customerId: customer.body.data.customerId,
      referenceId: unique("membership"),
      priceId: plan.body.data.planId,
    });
    expect(subscribed.status).toBe(201);
    const invoices = (await live("GET", `/api/v1/payments/subscriptions/${subscribed.body.data.subscriptionId}/invoices`)).body.data as Array<Record<string, string>>;
    const invoice = invoices[0]!;
    const atPaymongo = await paymongoLink(new URL(invoice.hostedInvoiceUrl!).pathname.split("/").pop()!);
    const { paymentId } = await suite.sim.payLink(atPaymongo.id);
    await eventually(async () => ((await live("GET", `/api/v1/payments/invoices/${invoice.invoiceId}`)).body.data.status === "paid" ? true : undefined), 20_000);

    const refund = await refundOnceRefundable(live, invoice.invoiceId!, 200_00);
    expect(refund.status).toBe(201);
    expect(refund.body.data.paymentId).toBe(invoice.invoiceId);
    const made = await eventually(async () => {
      const found = await paymongoRefunds(paymentId);
      return found.length === 1 ? found[0] : undefined;
    });
    expect(made!.attributes).toMatchObject({ payment_id: paymentId, amount: 200_00, metadata: { bayad_resource_id: refund.body.data.refundId } });
  });

  it("refunds a sandbox payment link and a sandbox invoice paid in test mode", async () => {
    const created = await test("POST", "/api/v1/payments/payment-links", {
      referenceId: unique("sandbox-link"),
      amount: { amountMinor: 120_00, currency: "PHP" },
      description: "Tote bag",
    });
    const linkId = created.body.data.paymentLinkId as string;
    expect((await test("POST", `/api/v1/payments/test-helpers/payment-links/${linkId}/pay`)).status).toBe(200);
    const refund = await refundOnceRefundable(test, linkId, 20_00);
    expect(refund.status).toBe(201);
    const refundId = refund.body.data.refundId as string;
    const succeeded = await test("POST", `/api/v1/payments/test-helpers/refunds/${refundId}/succeed`);
    expect(succeeded.body.data.status).toBe("succeeded");
    const partly = await eventually(async () => {
      const read = (await test("GET", `/api/v1/payments/payment-links/${linkId}`)).body.data;
      return read.refundedAmount ? read : undefined;
    });
    expect(partly).toMatchObject({ status: "paid", refundedAmount: { amountMinor: 20_00, currency: "PHP" }, refunded: false });
    // 100 of 120 pesos are left.
    expect((await test("POST", "/api/v1/payments/refunds", { paymentId: linkId, amount: { amountMinor: 100_01, currency: "PHP" } })).body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");

    const plan = await test("POST", "/api/v1/payments/plans", { name: "Basic", amount: 99_00, interval: "monthly" });
    const customer = await test("POST", "/api/v1/payments/customers", { customerReference: unique("sandbox-member"), email: "m@example.ph" });
    const subscribed = await test("POST", "/api/v1/payments/subscriptions", { customerId: customer.body.data.customerId, referenceId: unique("basic"), priceId: plan.body.data.planId });
    const invoice = ((await test("GET", `/api/v1/payments/subscriptions/${subscribed.body.data.subscriptionId}/invoices`)).body.data as Array<Record<string, string>>)[0]!;
    expect((await test("POST", `/api/v1/payments/test-helpers/invoices/${invoice.invoiceId}/pay`)).status).toBe(200);
    expect((await refundOnceRefundable(test, invoice.invoiceId!, 99_00)).status).toBe(201);
  });

  it("answers 404 for an unpaid link, and for another project's paid link", async () => {
    const created = await test("POST", "/api/v1/payments/payment-links", { referenceId: unique("unpaid"), amount: { amountMinor: 50_00, currency: "PHP" }, description: "Mug" });
    const linkId = created.body.data.paymentLinkId as string;
    const unpaid = await test("POST", "/api/v1/payments/refunds", { paymentId: linkId, amount: { amountMinor: 10_00, currency: "PHP" } });
    expect(unpaid.status).toBe(404);

    await test("POST", `/api/v1/payments/test-helpers/payment-links/${linkId}/pay`);
    expect((await refundOnceRefundable(test, linkId, 10_00)).status).toBe(201);
    const other = await suite.api.newProject("Someone else");
    const foreign = await suite.api.request("POST", "/api/v1/payments/refunds", { credential: other.testKey, body: { paymentId: linkId, amount: { amountMinor: 10_00, currency: "PHP" } } });
    expect(foreign.status).toBe(404);
  });
});
