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

async function paidPayment(): Promise<string> {
  const session = await f.api.create("/v1/checkout_sessions", checkoutSessionAttributes());
  const { paymentId } = await f.sim.payCheckoutSession(session.id);
  await f.sim.flushDeliveries();
  f.receiver.received.length = 0;
  return paymentId; // 15000 centavos
}

const refund = (paymentId: string, amount: number, extra: Record<string, unknown> = {}) =>
  f.api.post("/v1/refunds", { amount, payment_id: paymentId, reason: "requested_by_customer", notes: "Cold coffee", ...extra });

describe("refunds", () => {
  it("starts pending and is read back by id and by payment_id", async () => {
    const paymentId = await paidPayment();
    const answer = await refund(paymentId, 5000, { metadata: { bayad_id: "rf_1" } });
    expect(answer.status).toBe(200);
    const created = answer.body.data;
    expect(created.id).toMatch(/^ref_[0-9A-Za-z]{24}$/);
    expect(created.attributes).toMatchObject({ amount: 5000, payment_id: paymentId, reason: "requested_by_customer", status: "pending", notes: "Cold coffee", metadata: { bayad_id: "rf_1" } });
    expect((await f.api.get(`/v1/refunds/${created.id}`)).body.data).toEqual(created);
    await refund(await paidPayment(), 100);
    expect((await f.api.get(`/v1/refunds?payment_id=${paymentId}`)).body).toEqual({ data: [created], has_more: false });
  });

  it.each([
    ["amount", { amount: 99 }, "parameter_below_minimum"],
    ["reason", { reason: "changed_mind" }, "parameter_invalid"],
    ["notes", { notes: "x".repeat(256) }, "parameter_above_maximum"],
    ["payment_id", { payment_id: undefined }, "parameter_required"],
  ])("refuses a bad %s", async (attribute, overrides, code) => {
    const paymentId = await paidPayment();
    const answer = await f.api.post("/v1/refunds", { amount: 1000, payment_id: paymentId, reason: "others", ...overrides });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ code, detail: expect.any(String), source: { pointer: `attributes.${attribute}`, attribute } }]);
  });

  it("never refunds more than is left of the payment; a failed refund frees its amount", async () => {
    const paymentId = await paidPayment();
    const first = (await refund(paymentId, 10000)).body.data;
    await f.sim.settleRefund(first.id, "succeeded");
    const tooMuch = await refund(paymentId, 5001);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors[0]).toMatchObject({ code: "parameter_above_maximum", source: { attribute: "amount" } });
    const second = (await refund(paymentId, 5000)).body.data;
    await f.sim.settleRefund(second.id, "failed");
    expect((await refund(paymentId, 5000)).status).toBe(200);
  });

  it("answers 404 for an unknown payment, naming payment_id", async () => {
    const answer = await refund("pay_nope", 1000);
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0]).toMatchObject({ code: "resource_not_found", source: { attribute: "payment_id" } });
  });

  it("settleRefund succeeded: payment.refund.updated with the refund, payment.refunded with the payment", async () => {
    const paymentId = await paidPayment();
    const created = (await refund(paymentId, 5000)).body.data;
    await f.sim.settleRefund(created.id, "succeeded");
    expect((await f.api.get(`/v1/refunds/${created.id}`)).body.data.attributes.status).toBe("succeeded");
    await f.sim.flushDeliveries();
    expect(f.receiver.types().sort()).toEqual(["payment.refund.updated", "payment.refunded"]);
    const byType = Object.fromEntries(f.receiver.received.map((r) => [r.json.data.attributes.type, r.json.data.attributes.data]));
    expect(byType["payment.refund.updated"]).toMatchObject({ id: created.id, type: "refund", attributes: { status: "succeeded" } });
    expect(byType["payment.refunded"]).toMatchObject({ id: paymentId, attributes: { refunds: [{ id: created.id, attributes: { status: "succeeded" } }] } });
    await expect(f.sim.settleRefund(created.id, "failed")).rejects.toMatchObject({ code: "resource_failed_state" });
  });

  it("settleRefund failed: only payment.refund.updated", async () => {
    const created = (await refund(await paidPayment(), 5000)).body.data;
    await f.sim.settleRefund(created.id, "failed");
    await f.sim.flushDeliveries();
    expect(f.receiver.types()).toEqual(["payment.refund.updated"]);
  });
});

describe("links", () => {
  it("creates a link with a 7-character reference_number and finds it by that reference", async () => {
    const link = await f.api.create("/v1/links", { amount: 50000, description: "Invoice 7", remarks: "June" });
    expect(link.id).toMatch(/^link_[0-9A-Za-z]{24}$/);
    expect(link.attributes).toMatchObject({ amount: 50000, status: "unpaid", archived: false, payments: [] });
    expect(link.attributes.reference_number).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(link.attributes.checkout_url).toBe(`${f.sim.url}/pm.link/${link.attributes.reference_number}`);
    expect((await f.api.get(`/v1/links/${link.id}`)).body.data).toEqual(link);
    expect((await f.api.get(`/v1/links?reference_number=${link.attributes.reference_number}`)).body).toEqual({ data: [link], has_more: false });
    expect((await f.api.get("/v1/links?reference_number=zzzzzzz")).body).toEqual({ data: [], has_more: false });
  });

  it("refuses an amount under PayMongo's ₱100 for links and a missing description", async () => {
    expect((await f.api.post("/v1/links", { amount: 10_000, description: "Exactly the minimum" })).status).toBe(200);
    const answer = await f.api.post("/v1/links", { amount: 9_999 });
    expect(answer.body.errors.map((e: { code: string; source: { attribute: string } }) => [e.source.attribute, e.code])).toEqual([
      ["amount", "parameter_below_minimum"],
      ["description", "parameter_required"],
    ]);
  });

  it("payLink: paid, with its payment wrapped in data as PayMongo shows it, and link.payment.paid", async () => {
    const link = await f.api.create("/v1/links", { amount: 50000, description: "Invoice 7" });
    const { paymentId } = await f.sim.payLink(link.id);
    const after = (await f.api.get(`/v1/links/${link.id}`)).body.data;
    expect(after.attributes).toMatchObject({
      status: "paid",
      payments: [{ data: { id: paymentId, type: "payment", attributes: { amount: 50000, status: "paid" } } }],
    });
    expect((await f.api.get("/v1/links")).body.data[0].attributes.payments).toEqual(after.attributes.payments);
    await f.sim.flushDeliveries();
    expect(f.receiver.types().sort()).toEqual(["link.payment.paid", "payment.paid"]);
    const linkEvent = f.receiver.received.find((r) => r.json.data.attributes.type === "link.payment.paid")!;
    expect(linkEvent.json.data.attributes.data).toEqual(after);
    await expect(f.sim.payLink(link.id)).rejects.toMatchObject({ code: "resource_failed_state" });
  });

  it("an archived link cannot be paid until unarchived", async () => {
    const link = await f.api.create("/v1/links", { amount: 50000, description: "Invoice 7" });
    expect((await f.api.post(`/v1/links/${link.id}/archive`)).body.data.attributes.archived).toBe(true);
    await expect(f.sim.payLink(link.id)).rejects.toMatchObject({ code: "resource_failed_state" });
    await f.api.post(`/v1/links/${link.id}/unarchive`);
    await expect(f.sim.payLink(link.id)).resolves.toEqual({ paymentId: expect.stringMatching(/^pay_/) });
  });
});
