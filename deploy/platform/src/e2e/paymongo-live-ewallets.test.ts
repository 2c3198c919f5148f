import { describe, expect, it } from "vitest";
import { eventually, expectError, unique } from "../test-support/harness.js";
import { paymongoLiveSuite } from "../test-support/paymongo-live.js";

const returnUrl = "https://shop.example.ph/orders/return";

/**
 * E-wallet and online-banking payment intents in live mode against the PayMongo simulator: made
 * at PayMongo as its documentation says (PI type, a bank code for banks, attach with
 * return_url), paid or failed by the payer on PayMongo's redirect page, settled by PayMongo's
 * signed webhook.
 */
describe("live e-wallet and online-banking intents at PayMongo", () => {
  const suite = paymongoLiveSuite({ project: "Live wallet shop", paymentMethodTypes: ["gcash", "brankas_bdo", "card"] });
  const { live } = suite;

  const intentBody = (paymentMethod: Record<string, string>, extra: Record<string, unknown> = { returnUrl }) => ({
    referenceId: unique("live-wallet"),
    amount: { amountMinor: 1500_00, currency: "PHP" },
    paymentMethod,
    ...extra,
  });
  const statusOf = async (id: string) => (await live("GET", `/api/v1/payments/intents/${id}`)).body.data.status as string;

  /** The PayMongo intent and payment method behind a Bayad intent, read at the simulator. */
  async function providerIntentOf(paymentIntentId: string) {
    const stored = await suite.api.platform.stores.payments
      .collection<{ _id: string; providerReference: string }>({ name: "payment_intents" })
      .findOne({ _id: paymentIntentId });
    return suite.sim.find(stored!.providerReference) as { id: string; attributes: Record<string, any> };
  }

  it("lists the account's intent methods in capabilities", async () => {
    const capabilities = await live("GET", "/api/v1/payments/capabilities");
    expect(capabilities.body.data.paymentIntentMethods).toEqual([{ type: "gcash" }, { type: "online_banking", bankCode: "bdo" }]);
  });

  it("makes a GCash intent at PayMongo, whose redirect page the payer pays on; PayMongo's webhook settles it, and it is refundable", async () => {
    const created = await live("POST", "/api/v1/payments/intents", intentBody({ type: "gcash" }));
    expect(created.status).toBe(201);
    const intent = created.body.data;
    expect(intent).toMatchObject({ status: "requires_action", paymentMethod: { type: "gcash" }, nextAction: { type: "redirect" } });
    const providerIntent = await providerIntentOf(intent.paymentIntentId);
    expect(providerIntent.attributes).toMatchObject({
      payment_method_allowed: ["gcash"],
      status: "awaiting_next_action",
      metadata: { bayad_resource_id: intent.paymentIntentId },
      next_action: { type: "redirect", redirect: { url: intent.nextAction.url, return_url: returnUrl } },
    });

    const paid = await fetch(`${intent.nextAction.url}/pay`, { method: "POST", redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(returnUrl);
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await statusOf(intent.paymentIntentId)) === "succeeded" ? true : undefined));

    const refund = await live("POST", "/api/v1/payments/refunds", {
      paymentId: intent.paymentIntentId,
      amount: { amountMinor: 100_00, currency: "PHP" },
      reason: "customer request",
    });
    expect(refund.status).toBe(201);
  });

  it("makes a BDO online-banking intent as PayMongo's brankas with the bank code; the payer's failure settles it failed", async () => {
    const created = await live("POST", "/api/v1/payments/intents", intentBody({ type: "online_banking", bankCode: "bdo" }));
    expect(created.status).toBe(201);
    const intent = created.body.data;
    const providerIntent = await providerIntentOf(intent.paymentIntentId);
    expect(providerIntent.attributes.payment_method_allowed).toEqual(["brankas"]);
    const pageHtml = await (await fetch(intent.nextAction.url)).text();
    expect(pageHtml).toContain("Pay");

    const failed = await fetch(`${intent.nextAction.url}/fail`, { method: "POST", redirect: "manual" });
    expect(failed.status).toBe(303);
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await statusOf(intent.paymentIntentId)) === "failed" ? true : undefined));
  });

  it("settles a paid intent whose webhook was lost by reading the PayMongo intent", async () => {
    suite.sim.setWebhookDelivery({ mode: "drop" });
    try {
      const created = await live("POST", "/api/v1/payments/intents", intentBody({ type: "gcash" }));
      const intent = created.body.data;
      expect((await fetch(`${intent.nextAction.url}/pay`, { method: "POST", redirect: "manual" })).status).toBe(303);
      await eventually(async () => ((await statusOf(intent.paymentIntentId)) === "succeeded" ? true : undefined), 15_000);
    } finally {
      suite.sim.setWebhookDelivery({ mode: "deliver" });
    }
  });

  it("refuses a method the account has not enabled, a missing returnUrl and an amount below PayMongo's minimum, before PayMongo is asked", async () => {
    const madeBefore = suite.sim.objects("payment_intent").length;
    const maya = await live("POST", "/api/v1/payments/intents", intentBody({ type: "maya" }));
    expectError(maya, 422, "PAYMENT_METHOD_NOT_OFFERED");
    expect(maya.body.error.details).toEqual(["paymentMethod: maya is not offered here"]);
    const noReturn = await live("POST", "/api/v1/payments/intents", intentBody({ type: "gcash" }, {}));
    expectError(noReturn, 400, "VALIDATION_FAILED");
    expect(noReturn.body.error.details).toEqual(["returnUrl: is required"]);
    const tooSmall = await live("POST", "/api/v1/payments/intents", { ...intentBody({ type: "gcash" }), amount: { amountMinor: 1999, currency: "PHP" } });
    expectError(tooSmall, 422, "AMOUNT_OUT_OF_RANGE");
    expect(tooSmall.body.error.details).toEqual(["amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for gcash"]);
    // PayMongo was asked for nothing: it holds no intent more than before.
    expect(suite.sim.objects("payment_intent")).toHaveLength(madeBefore);
  });
});
