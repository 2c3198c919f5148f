import { describe, expect, it } from "vitest";
import { eventually, unique } from "../test-support/harness.js";
import { paymongoLiveSuite } from "../test-support/paymongo-live.js";

/**
 * Fees and net end to end: a live checkout paid at the PayMongo simulator shows PayMongo's fee
 * (the payment's amount less its net_amount) and the payer's method; a test-mode checkout paid on
 * the sandbox's page shows the sandbox fee table's card fee.
 */
describe("fees and net", () => {
  const suite = paymongoLiveSuite({ project: "Fee shop", paymentMethodTypes: ["gcash", "paymaya", "card"] });
  const { live, test } = suite;

  const order = (amountMinor: number) => ({
    referenceId: unique("fee-order"),
    amount: { amountMinor, currency: "PHP" },
    successUrl: "https://shop.example.ph/paid",
    cancelUrl: "https://shop.example.ph/cart",
  });

  async function feedRecord(call: typeof live, id: string) {
    const page = await call("GET", "/api/v1/payments/records?limit=200");
    return (page.body.data.records as Array<{ id: string; status: string; amountMinor: string | null; provider: string | null; providerAccountId: string | null }>).find(
      (record) => record.id === id,
    );
  }

  it("a live checkout paid at PayMongo shows PayMongo's fee, the net and Bayad's name of the method", async () => {
    suite.sim.setWebhookDelivery({ mode: "deliver" });
    const created = await live("POST", "/api/v1/payments/checkouts", order(1_875_50));
    expect(created.status).toBe(201);
    // Unpaid: no method, no fee yet.
    expect(created.body.data).toMatchObject({ paymentMethod: null, fee: null, netAmount: null });
    const checkoutId = created.body.data.checkoutId as string;
    const sessionId = new URL(created.body.data.checkoutUrl as string).pathname.split("/").pop()!;

    const { paymentId } = await suite.sim.payCheckoutSession(sessionId, { method: "paymaya" });
    await suite.sim.flushDeliveries();
    const net = (suite.sim.find(paymentId) as { attributes: { amount: number; net_amount: number } }).attributes.net_amount;
    expect(net).toBeGreaterThan(0);
    expect(net).toBeLessThan(1_875_50);

    const paid = await eventually(async () => {
      const read = (await live("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data;
      return read.status === "paid" ? read : undefined;
    });
    expect(paid).toMatchObject({
      paymentMethod: "maya",
      fee: { amountMinor: 1_875_50 - net, currency: "PHP" },
      netAmount: { amountMinor: net, currency: "PHP" },
      provider: "paymongo",
      providerAccountId: suite.providerAccountId,
    });

    // The records feed lists the paid checkout (its fee and method fields come with the records change).
    const record = await eventually(async () => {
      const found = await feedRecord(live, checkoutId);
      return found?.status === "paid" ? found : undefined;
    });
    expect(record).toMatchObject({ provider: "paymongo", providerAccountId: suite.providerAccountId });
    expect(Number(record.amountMinor)).toBe(1_875_50);
  });

  it("a test-mode checkout paid on the sandbox's page shows the fee table's card fee", async () => {
    const created = await test("POST", "/api/v1/payments/checkouts", order(999_99));
    expect(created.status).toBe(201);
    const checkoutId = created.body.data.checkoutId as string;
    const paid = await test("POST", `/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`);
    expect(paid.status).toBe(200);
    // The table's card rate (docs/api/payments.md): 3.5% of 99999 is 3499.965 → 3500, plus ₱15.
    const fee = 3_500 + 1_500;
    expect(paid.body.data).toMatchObject({
      status: "paid",
      paymentMethod: "card",
      fee: { amountMinor: fee, currency: "PHP" },
      netAmount: { amountMinor: 999_99 - fee, currency: "PHP" },
      provider: "sandbox",
    });
    expect((await test("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data).toMatchObject({ fee: { amountMinor: fee } });

    const refund = await test("POST", "/api/v1/payments/refunds", { paymentId: checkoutId, amount: { amountMinor: 100_00, currency: "PHP" }, reason: "r" });
    expect(refund.status).toBe(201);
    // The sandbox reports no refund fee.
    expect(refund.body.data.fee).toBeNull();
  });
});
