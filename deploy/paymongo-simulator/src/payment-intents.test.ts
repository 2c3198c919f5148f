import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";

let f: Fixture;
beforeEach(async () => {
  f = await simulatorWithWebhook();
});
afterEach(async () => {
  await f.close();
});

const intent = (methods: string[], amount = 25000) =>
  f.api.create("/v1/payment_intents", { amount, currency: "PHP", payment_method_allowed: methods, description: "Load", metadata: { bayad_id: "pi_1" } });

async function attached(type: string, extra: Record<string, unknown> = {}) {
  const pi = await intent([type]);
  const pm = await f.api.create("/v1/payment_methods", { type, ...extra });
  const answer = await f.api.post(`/v1/payment_intents/${pi.id}/attach`, { payment_method: pm.id, return_url: "https://shop.example.ph/back" });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe("payment intents and methods", () => {
  it("creates an intent with a client_key and reads it back", async () => {
    const pi = await intent(["gcash"]);
    expect(pi.attributes).toMatchObject({ status: "awaiting_payment_method", payments: [], next_action: null, last_payment_error: null });
    expect(pi.attributes.client_key).toMatch(new RegExp(`^${pi.id}_client_[0-9A-Za-z]+$`));
    expect((await f.api.get(`/v1/payment_intents/${pi.id}`)).body.data).toEqual(pi);
  });

  it("refuses an amount under PHP 20.00", async () => {
    const answer = await f.api.post("/v1/payment_intents", { amount: 1999, currency: "PHP", payment_method_allowed: ["gcash"] });
    expect(answer.body.errors).toEqual([
      { code: "parameter_below_minimum", detail: expect.any(String), source: { pointer: "attributes.amount", attribute: "amount" } },
    ]);
  });

  it("creates a payment method, and bounds a QR Ph expiry_seconds to 60–9000", async () => {
    const pm = await f.api.create("/v1/payment_methods", { type: "qrph" });
    expect(pm.id).toMatch(/^pm_[0-9A-Za-z]{24}$/);
    expect(pm.attributes).toMatchObject({ type: "qrph", expiry_seconds: 1800 });
    expect((await f.api.get(`/v1/payment_methods/${pm.id}`)).body.data).toEqual(pm);
    for (const [value, code] of [
      [59, "parameter_below_minimum"],
      [9001, "parameter_above_maximum"],
    ] as const) {
      const answer = await f.api.post("/v1/payment_methods", { type: "qrph", expiry_seconds: value });
      expect(answer.body.errors[0]).toMatchObject({ code, source: { attribute: "expiry_seconds" } });
    }
    const notQr = await f.api.post("/v1/payment_methods", { type: "gcash", expiry_seconds: 600 });
    expect(notQr.body.errors[0]).toMatchObject({ code: "parameter_invalid", source: { attribute: "expiry_seconds" } });
  });

  it("keeps only a card's last four digits", async () => {
    const pm = await f.api.create("/v1/payment_methods", { type: "card", details: { card_number: "4343434343434345", exp_month: 12, exp_year: 2030, cvc: "123" } });
    expect(pm.attributes.details).toEqual({ last4: "4345", exp_month: 12, exp_year: 2030 });
    expect(JSON.stringify(f.sim.find(pm.id))).not.toContain("4343434343434345");
  });
});

describe("POST /v1/payment_intents/{id}/attach", () => {
  it("gives a redirect next_action for e-wallets", async () => {
    const pi = await attached("gcash");
    expect(pi.attributes.status).toBe("awaiting_next_action");
    expect(pi.attributes.next_action).toEqual({
      type: "redirect",
      redirect: { url: `${f.sim.url}/redirect/${pi.id}`, return_url: "https://shop.example.ph/back" },
    });
  });

  it("gives a QR Ph next_action with a base64 PNG data URL", async () => {
    const pi = await attached("qrph", { expiry_seconds: 600 });
    expect(pi.attributes.status).toBe("awaiting_next_action");
    expect(pi.attributes.next_action.type).toBe("consume_qr");
    const imageUrl: string = pi.attributes.next_action.code.image_url;
    expect(imageUrl.startsWith("data:image/png;base64,")).toBe(true);
    const png = Buffer.from(imageUrl.slice("data:image/png;base64,".length), "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBeGreaterThan(100); // IHDR width: a real image, not a pixel
  });

  it("needs a return_url for redirect methods, a method the intent allows, and a method that exists", async () => {
    const pi = await intent(["gcash"]);
    const gcash = await f.api.create("/v1/payment_methods", { type: "gcash" });
    const card = await f.api.create("/v1/payment_methods", { type: "card" });
    const noReturn = await f.api.post(`/v1/payment_intents/${pi.id}/attach`, { payment_method: gcash.id });
    expect(noReturn.body.errors[0]).toMatchObject({ code: "parameter_required", source: { attribute: "return_url" } });
    const wrongType = await f.api.post(`/v1/payment_intents/${pi.id}/attach`, { payment_method: card.id, return_url: "https://x.ph" });
    expect(wrongType.body.errors[0]).toMatchObject({ code: "parameter_invalid", source: { attribute: "payment_method" } });
    const missing = await f.api.post(`/v1/payment_intents/${pi.id}/attach`, { payment_method: "pm_nope", return_url: "https://x.ph" });
    expect(missing.status).toBe(404);
    expect((await f.api.get(`/v1/payment_intents/${pi.id}`)).body.data.attributes.status).toBe("awaiting_payment_method");
  });
});

describe("online banking and the PI type names", () => {
  it("takes dob with bpi or ubp and brankas with bdo, landbank or metrobank, and redirects", async () => {
    for (const [type, bankCode] of [["dob", "bpi"], ["dob", "ubp"], ["brankas", "bdo"], ["brankas", "landbank"], ["brankas", "metrobank"]] as const) {
      const method = await f.api.create("/v1/payment_methods", { type, details: { bank_code: bankCode } });
      expect(method.attributes).toMatchObject({ type, details: { bank_code: bankCode } });
      const pi = await attached(type, { details: { bank_code: bankCode } });
      expect(pi.attributes).toMatchObject({ status: "awaiting_next_action", next_action: { type: "redirect" } });
    }
  });

  it("refuses a bank method without its bank code, or with another type's bank", async () => {
    const none = await f.api.post("/v1/payment_methods", { type: "dob" });
    expect(none.body.errors).toEqual([expect.objectContaining({ code: "parameter_required", source: { pointer: "attributes.details.bank_code", attribute: "details.bank_code" } })]);
    const wrong = await f.api.post("/v1/payment_methods", { type: "brankas", details: { bank_code: "bpi" } });
    expect(wrong.body.errors).toEqual([expect.objectContaining({ code: "parameter_invalid", source: expect.objectContaining({ attribute: "details.bank_code" }) })]);
  });

  it("names ShopeePay `shopeepay` on intents and refuses Checkout Session names there", async () => {
    expect((await attached("shopeepay")).attributes.status).toBe("awaiting_next_action");
    for (const name of ["brankas_bdo", "dob_ubp", "shopee_pay"]) {
      const answer = await f.api.post("/v1/payment_intents", { amount: 25000, currency: "PHP", payment_method_allowed: [name] });
      expect(answer.body.errors[0], name).toMatchObject({ code: "parameter_invalid", source: { attribute: "payment_method_allowed" } });
      const method = await f.api.post("/v1/payment_methods", { type: name });
      expect(method.body.errors[0], name).toMatchObject({ code: "parameter_invalid", source: { attribute: "type" } });
    }
  });

  it("the redirect page's fail leaves the intent awaiting a method with last_payment_error, sends payment.failed, and returns to return_url", async () => {
    const pi = await attached("dob", { details: { bank_code: "bpi" } });
    const answer = await fetch(`${pi.attributes.next_action.redirect.url}/fail`, { method: "POST", redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("https://shop.example.ph/back");
    expect(f.sim.find(pi.id)).toMatchObject({ attributes: { status: "awaiting_payment_method", last_payment_error: { failed_code: "generic_decline" } } });
    await f.sim.flushDeliveries();
    expect(f.receiver.types()).toEqual(["payment.failed"]);
  });
});

describe("settling a payment intent", () => {
  it("payPaymentIntent: succeeded, a paid payment, payment.paid", async () => {
    const pi = await attached("gcash");
    const { paymentId } = await f.sim.payPaymentIntent(pi.id);
    const after = (await f.api.get(`/v1/payment_intents/${pi.id}`)).body.data;
    expect(after.attributes).toMatchObject({ status: "succeeded", next_action: null, payments: [{ id: paymentId, attributes: { status: "paid", source: { type: "gcash" }, payment_intent_id: pi.id, metadata: { bayad_id: "pi_1" } } }] });
    await f.sim.flushDeliveries();
    expect(f.receiver.types()).toEqual(["payment.paid"]);
    expect(f.receiver.received[0]!.json.data.attributes.data.id).toBe(paymentId);
    await expect(f.sim.payPaymentIntent(pi.id)).rejects.toMatchObject({ code: "resource_failed_state" });
  });

  it("payPaymentIntent on an intent with nothing attached pays with the named method", async () => {
    const pi = await intent(["gcash", "paymaya"]);
    const { paymentId } = await f.sim.payPaymentIntent(pi.id, { method: "paymaya" });
    expect(f.sim.find(paymentId)).toMatchObject({ attributes: { source: { type: "paymaya" } } });
  });

  it("failPaymentIntent: back to awaiting_payment_method with last_payment_error, a failed payment, payment.failed", async () => {
    const pi = await attached("qrph");
    await f.sim.failPaymentIntent(pi.id, { code: "insufficient_funds", message: "Not enough balance." });
    const after = (await f.api.get(`/v1/payment_intents/${pi.id}`)).body.data;
    expect(after.attributes).toMatchObject({
      status: "awaiting_payment_method",
      next_action: null,
      last_payment_error: { failed_code: "insufficient_funds", failed_message: "Not enough balance." },
      payments: [{ attributes: { status: "failed", failed_code: "insufficient_funds", fee: 0 } }],
    });
    await f.sim.flushDeliveries();
    expect(f.receiver.types()).toEqual(["payment.failed"]);
    expect(f.receiver.received[0]!.json.data.attributes.data.attributes).toMatchObject({ status: "failed", payment_intent_id: pi.id });
  });

  it("a QR Ph failure defaults to RJCT", async () => {
    const pi = await attached("qrph");
    await f.sim.failPaymentIntent(pi.id);
    expect(f.sim.find(pi.id)).toMatchObject({ attributes: { last_payment_error: { failed_code: "RJCT" } } });
  });

  it("expireQrPh: back to awaiting_payment_method and qrph.expired naming the intent", async () => {
    const pi = await attached("qrph");
    await f.sim.expireQrPh(pi.id);
    expect(f.sim.find(pi.id)).toMatchObject({ attributes: { status: "awaiting_payment_method", next_action: null } });
    await f.sim.flushDeliveries();
    expect(f.receiver.types()).toEqual(["qrph.expired"]);
    // As PayMongo documents it: the code's own created_at an ISO time at +08:00, the envelope's unix seconds.
    const event = f.receiver.received[0]!.json.data.attributes;
    expect(event.data).toMatchObject({ id: expect.stringMatching(/^qrph_/), type: "qrph", attributes: { payment_intent_id: pi.id, source_status: "expired" } });
    expect(event.data.attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00$/);
    expect(typeof event.created_at).toBe("number");
    await expect(f.sim.expireQrPh(pi.id)).rejects.toMatchObject({ code: "resource_failed_state" });
  });

  it("a session's intent is paid through the session only", async () => {
    const session = await f.api.create("/v1/checkout_sessions", {
      line_items: [{ name: "x", amount: 5000, currency: "PHP", quantity: 1 }],
      payment_method_types: ["gcash"],
      success_url: "https://x.ph/s",
      cancel_url: "https://x.ph/c",
      reference_number: "r",
    });
    await expect(f.sim.payPaymentIntent(session.attributes.payment_intent.id)).rejects.toMatchObject({ code: "resource_failed_state" });
  });

  it("the redirect page pays and returns to return_url", async () => {
    const pi = await attached("paymaya");
    const answer = await fetch(`${pi.attributes.next_action.redirect.url}/pay`, { method: "POST", redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("https://shop.example.ph/back");
    expect(f.sim.find(pi.id)).toMatchObject({ attributes: { status: "succeeded" } });
  });
});
