import { describe, expect, it } from "vitest";
import { eventually, expectError, unique } from "../test-support/harness.js";
import { paymongoLiveSuite } from "../test-support/paymongo-live.js";

const DAY_MS = 86_400_000;

/**
 * PayMongo's refund rules end to end against the simulator: what Bayad knows of them refuses a
 * refund before anything is written or PayMongo is asked; what only PayMongo knows (its balance,
 * a payment it aged) comes back as the same 4xx with PayMongo's code, and leaves no pending
 * refund behind.
 */
describe("refund rules on PayMongo", () => {
  const suite = paymongoLiveSuite({ project: "Rules shop", paymentMethodTypes: ["gcash", "qrph", "card", "paymaya"] });
  const { live, ownerAuth: auth } = suite;

  const refund = (paymentId: string, amountMinor: number) =>
    live("POST", "/api/v1/payments/refunds", { paymentId, amount: { amountMinor, currency: "PHP" }, reason: "requested_by_customer" });
  const storedRefunds = (paymentId: string) =>
    suite.api.platform.stores.payments.collection<{ _id: string; status: string }>({ name: "refunds" }).find({ paymentId });

  /** The refunds PayMongo holds of its payment `paymentId`. */
  async function paymongoRefunds(paymentId: string) {
    const list = (await (await fetch(`${suite.sim.url}/v1/refunds?payment_id=${paymentId}`, { headers: auth })).json()) as { data: Array<{ id: string; attributes: { status: string } }> };
    return list.data;
  }

  /** A live checkout paid at PayMongo with `method`; resolves once Bayad shows it paid. */
  async function paidCheckout(method: string, amountMinor = 300_00, beforeBayadKnows?: (paymentId: string) => Promise<void>) {
    const created = await live("POST", "/api/v1/payments/checkouts", {
      referenceId: unique("rules-order"),
      amount: { amountMinor, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    });
    expect(created.status).toBe(201);
    const checkoutId = created.body.data.checkoutId as string;
    const sessionId = new URL(created.body.data.checkoutUrl as string).pathname.split("/").pop()!;
    if (beforeBayadKnows) suite.sim.setWebhookDelivery({ mode: "drop" });
    try {
      const { paymentId } = await suite.sim.payCheckoutSession(sessionId, { method });
      await beforeBayadKnows?.(paymentId);
      await suite.sim.flushDeliveries();
      await eventually(async () => ((await live("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data.status === "paid" ? true : undefined), 20_000);
      return { checkoutId, paymentId };
    } finally {
      suite.sim.setWebhookDelivery({ mode: "deliver" });
    }
  }

  /** The records feed's refund records of a payment, once `settled` says they are there. */
  async function feedRefunds(paymentId: string, settled: (records: Array<{ status: string }>) => boolean) {
    return eventually(async () => {
      const page = await live("GET", "/api/v1/payments/records?limit=200");
      const records = (page.body.data.records as Array<{ type: string; relatedResourceId: string | null; status: string }>).filter(
        (record) => record.type === "refund" && record.relatedResourceId === paymentId,
      );
      return settled(records) ? records : undefined;
    });
  }

  it("refuses to refund a QR Ph payment, naming the rule, and writes nothing", async () => {
    const created = await live("POST", "/api/v1/payments/intents/qrph", {
      referenceId: unique("qr-order"),
      amount: { amountMinor: 180_00, currency: "PHP" },
      description: "Two iced coffees",
    });
    expect(created.status).toBe(201);
    const intentId = created.body.data.paymentIntentId as string;
    const stored = await suite.api.platform.stores.payments.collection<{ _id: string; providerReference: string }>({ name: "payment_intents" }).findOne({ _id: intentId });
    const { paymentId } = await suite.sim.payPaymentIntent(stored!.providerReference, { method: "qrph" });
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/intents/${intentId}`)).body.data.status === "succeeded" ? true : undefined), 20_000);

    const refused = await refund(intentId, 180_00);
    expectError(refused, 422, "REFUND_NOT_ALLOWED");
    expect(refused.body.error.details).toEqual(["paymentId: QR Ph payments cannot be refunded at PayMongo (rule: method_not_refundable)"]);
    expect(await storedRefunds(intentId)).toEqual([]);
    expect(await paymongoRefunds(paymentId)).toEqual([]);
  });

  it("refuses a second refund while the first is pending at PayMongo, and takes it once the first settled", async () => {
    const { checkoutId, paymentId } = await paidCheckout("gcash");
    const first = await refund(checkoutId, 100_00);
    expect(first.status).toBe(201);
    expect(first.body.data.status).toBe("pending");

    const second = await refund(checkoutId, 50_00);
    expectError(second, 409, "REFUND_IN_PROGRESS");
    expect(second.body.error.details).toEqual([expect.stringMatching(/^paymentId: .*\(rule: refund_in_progress\)$/)]);
    expect(await storedRefunds(checkoutId)).toHaveLength(1);
    const atPaymongo = await eventually(async () => {
      const made = await paymongoRefunds(paymentId);
      return made.length === 1 ? made : undefined;
    });

    await suite.sim.settleRefund(atPaymongo[0]!.id, "succeeded");
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/refunds/${first.body.data.refundId}`)).body.data.status === "succeeded" ? true : undefined));
    expect((await refund(checkoutId, 50_00)).status).toBe(201);
  });

  it("refuses a partial refund of a Maya payment (PayMongo refunds Maya only in full) before asking PayMongo", async () => {
    const { checkoutId, paymentId } = await paidCheckout("paymaya");
    const partial = await refund(checkoutId, 100_00);
    expectError(partial, 422, "REFUND_NOT_ALLOWED");
    expect(partial.body.error.details).toEqual([expect.stringMatching(/only in full \(30000 centavos\) \(rule: full_refund_only\)$/)]);
    expect(await paymongoRefunds(paymentId)).toEqual([]);
    expect((await refund(checkoutId, 300_00)).status).toBe(201);
  });

  it("refuses a refund past its window, from the payment time PayMongo reported", async () => {
    const { checkoutId, paymentId } = await paidCheckout("card", 300_00, (id) => suite.sim.setPaymentPaidAt(id, new Date(Date.now() - 61 * DAY_MS)));
    const late = await refund(checkoutId, 100_00);
    expectError(late, 422, "REFUND_WINDOW_PASSED");
    expect(late.body.error.details).toEqual([expect.stringMatching(/within 60 days .*\(rule: refund_window_passed\)$/)]);
    expect(await storedRefunds(checkoutId)).toEqual([]);
    expect(await paymongoRefunds(paymentId)).toEqual([]);
  });

  it("answers PayMongo's own refusal (its balance) as a 4xx with PayMongo's code, leaving nothing pending and the amount refundable", async () => {
    const { checkoutId, paymentId } = await paidCheckout("gcash");
    suite.sim.injectFault({ method: "POST", path: "/v1/refunds", status: 400, code: "available_balance_insufficient" });
    const refused = await refund(checkoutId, 100_00);
    expectError(refused, 422, "REFUND_NOT_ALLOWED");
    expect(refused.body.error.details).toContain("provider: available_balance_insufficient");

    expect((await storedRefunds(checkoutId)).map((record) => record.status)).toEqual(["failed"]);
    const records = await feedRefunds(checkoutId, (found) => found.length === 1 && found[0]!.status === "failed");
    expect(records.some((record) => record.status === "pending")).toBe(false);
    // The whole amount is still there to refund, and nothing stands in the way of the next refund.
    const whole = await refund(checkoutId, 300_00);
    expect(whole.status).toBe(201);
    expect(await eventually(async () => ((await paymongoRefunds(paymentId)).length === 1 ? true : undefined))).toBe(true);
  });

  it("answers a payment PayMongo says is past its window with its code, failing the refund", async () => {
    const { checkoutId, paymentId } = await paidCheckout("gcash");
    // PayMongo's payment is older than what it told Bayad (a clock, a late webhook): only PayMongo knows.
    await suite.sim.setPaymentPaidAt(paymentId, new Date(Date.now() - 200 * DAY_MS));
    const refused = await refund(checkoutId, 100_00);
    expectError(refused, 422, "REFUND_WINDOW_PASSED");
    expect(refused.body.error.details).toContain("provider: allowed_date_exceeded");
    expect((await storedRefunds(checkoutId)).map((record) => record.status)).toEqual(["failed"]);
    expect(await paymongoRefunds(paymentId)).toEqual([]);
  });
});
