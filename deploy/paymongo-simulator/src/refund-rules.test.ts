import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkoutSessionAttributes } from "./test-support/api-client.js";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";

let f: Fixture;
beforeEach(async () => {
  f = await simulatorWithWebhook();
});
afterEach(async () => {
  await f.close();
});

/** A payment of 15000 centavos paid with `method`. */
async function paidWith(method: string): Promise<string> {
  const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes({ payment_method_types: [method] }));
  return (await f.sim.payCheckoutSession(session.id, { method })).paymentId;
}

const refund = (paymentId: string, amount: number) => f.api.post("/v1/refunds", { amount, payment_id: paymentId, reason: "others" });
const codeOf = (answer: { status: number; body: { errors?: Array<{ code: string }> } }) => [answer.status, answer.body.errors?.[0]?.code];
const DAY_MS = 86_400_000;

describe("PayMongo's refund rules", () => {
  it("takes one refund of a payment at a time (resource_pending_state), and the next once it settled", async () => {
    const paymentId = await paidWith("gcash");
    const first = (await refund(paymentId, 5000)).body.data;
    expect(codeOf(await refund(paymentId, 5000))).toEqual([400, "resource_pending_state"]);
    await f.sim.settleRefund(first.id, "succeeded");
    expect((await refund(paymentId, 5000)).status).toBe(200);
  });

  it("refunds QR Ph payments not at all", async () => {
    expect(codeOf(await refund(await paidWith("qrph"), 15000))).toEqual([400, "payment_method_not_allowed"]);
  });

  it("refunds GrabPay and Maya payments only in full", async () => {
    for (const method of ["grab_pay", "paymaya"]) {
      const paymentId = await paidWith(method);
      expect(codeOf(await refund(paymentId, 5000))).toEqual([400, "parameter_above_maximum"]);
      expect((await refund(paymentId, 15000)).status).toBe(200);
    }
  });

  it("refuses a payment past its method's window (allowed_date_exceeded), aged with the paid_at control", async () => {
    const card = await paidWith("card");
    await f.sim.setPaymentPaidAt(card, new Date(Date.now() - 59 * DAY_MS));
    const gcash = await paidWith("gcash");
    await f.sim.setPaymentPaidAt(gcash, new Date(Date.now() - 61 * DAY_MS));
    const late = await paidWith("card");
    const aged = await fetch(`${f.sim.url}/__simulator/payments/${late}/paid_at`, {
      method: "POST",
      body: JSON.stringify({ paid_at: Math.floor((Date.now() - 61 * DAY_MS) / 1000) }),
    });
    expect(aged.status).toBe(200);
    expect(codeOf(await refund(late, 5000))).toEqual([400, "allowed_date_exceeded"]);
    expect((await refund(card, 5000)).status).toBe(200);
    expect((await refund(gcash, 5000)).status).toBe(200);
  });

  it("refuses a payment that is not paid (resource_failed_state)", async () => {
    const intent = await f.api.create("/v1/payment_intents", { amount: 15000, currency: "PHP", payment_method_allowed: ["gcash"] });
    await f.sim.failPaymentIntent(intent.id);
    const failed = (await f.api.get(`/v1/payment_intents/${intent.id}`)).body.data.attributes.payments as Array<{ id: string; attributes: { status: string } }>;
    expect(failed.map((payment) => payment.attributes.status)).toEqual(["failed"]);
    expect(codeOf(await refund(failed[0]!.id, 5000))).toEqual([400, "resource_failed_state"]);
  });

  it("answers an injected refusal with the code asked for (available_balance_insufficient)", async () => {
    const paymentId = await paidWith("gcash");
    f.sim.injectFault({ method: "POST", path: "/v1/refunds", status: 400, code: "available_balance_insufficient" });
    expect(codeOf(await refund(paymentId, 5000))).toEqual([400, "available_balance_insufficient"]);
    expect((await refund(paymentId, 5000)).status).toBe(200);
  });

  it("marks a link refunded once its payment is refunded in full", async () => {
    const link = await f.api.create("/v1/links", { amount: 50000, description: "Invoice 7" });
    const { paymentId } = await f.sim.payLink(link.id);
    const created = (await refund(paymentId, 50000)).body.data;
    await f.sim.settleRefund(created.id, "succeeded");
    expect((await f.api.get(`/v1/links/${link.id}`)).body.data.attributes.status).toBe("refunded");
  });
});
