import { describe, expect, it } from "vitest";
import { eventually, expectError, newIdempotencyKey, unique } from "../test-support/harness.js";
import { LOST_ANSWER_SETTINGS, paymongoLiveSuite } from "../test-support/paymongo-live.js";

type SimObject = { id: string; attributes: { metadata?: Record<string, string> | null; reference_number?: string } };

/**
 * Live mode against the PayMongo simulator when PayMongo's answers get lost: every create carries
 * an Idempotency-Key derived from the Bayad request's, so the adapter asks again and PayMongo
 * answers with what it made the first time, and it holds exactly one object per Bayad operation.
 * And amounts PayMongo publishes it would refuse are refused before PayMongo is called.
 */
describe("live mode on PayMongo: lost answers and amount limits", () => {
  const suite = paymongoLiveSuite({ project: "Live shop", paymentMethodTypes: ["gcash", "qrph", "card"], env: LOST_ANSWER_SETTINGS });
  const { live } = suite;

  /** What the simulator holds of a type that Bayad made for its resource (by the metadata on it). */
  const heldFor = (type: string, bayadId: string) => (suite.sim.objects(type) as SimObject[]).filter((object) => object.attributes.metadata?.bayad_resource_id === bayadId);
  const providerReferenceOf = async (collection: string, id: string) =>
    (await suite.api.platform.stores.payments.collection<{ _id: string; providerReference?: string }>({ name: collection }).findOne({ _id: id }))?.providerReference;

  it("makes one PayMongo intent, method and QR code for a live QR Ph whose intent, method and attach answers were each lost once", async () => {
    // The create's fault path matches only the collection; the attach's only the intent's own paths.
    suite.sim.injectFault({ method: "POST", path: "/v1/payment_intents/", status: "reset", afterProcessing: true });
    suite.sim.injectFault({ method: "POST", path: "/v1/payment_intents", status: "reset", afterProcessing: true });
    suite.sim.injectFault({ method: "POST", path: "/v1/payment_methods", status: 502, afterProcessing: true });
    const created = await live("POST", "/api/v1/payments/intents/qrph", {
      referenceId: unique("qr-lost"),
      amount: { amountMinor: 180_00, currency: "PHP" },
      description: "Two iced coffees",
    });
    expect(created.status).toBe(201);
    const intentId = created.body.data.paymentIntentId as string;
    const held = heldFor("payment_intent", intentId);
    expect(held.map((intent) => intent.id)).toEqual([await providerReferenceOf("payment_intents", intentId)]);
    expect(heldFor("payment_method", intentId)).toHaveLength(1);
    expect((suite.sim.objects("qrph") as Array<{ attributes: { payment_intent_id: string } }>).filter((code) => code.attributes.payment_intent_id === held[0]!.id)).toHaveLength(1);

    // The one intent is the one the payer pays.
    await suite.sim.payPaymentIntent(held[0]!.id, { method: "qrph" });
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/intents/${intentId}`)).body.data.status === "succeeded" ? true : undefined));
  });

  it("makes one PayMongo refund for a live refund whose answer was lost once, and knows its id at once", async () => {
    const checkout = await live("POST", "/api/v1/payments/checkouts", {
      referenceId: unique("order"),
      amount: { amountMinor: 250_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    });
    expect(checkout.status).toBe(201);
    const checkoutId = checkout.body.data.checkoutId as string;
    const sessionId = new URL(checkout.body.data.checkoutUrl as string).pathname.split("/").pop()!;
    await suite.sim.payCheckoutSession(sessionId, { method: "gcash" });
    await suite.sim.flushDeliveries();
    await eventually(async () => ((await live("GET", `/api/v1/payments/checkouts/${checkoutId}`)).body.data.status === "paid" ? true : undefined));

    suite.sim.injectFault({ method: "POST", path: "/v1/refunds", status: "reset", afterProcessing: true });
    const refund = await live("POST", "/api/v1/payments/refunds", { paymentId: checkoutId, amount: { amountMinor: 100_00, currency: "PHP" }, reason: "requested_by_customer" });
    expect(refund.status).toBe(201);
    const refundId = refund.body.data.refundId as string;
    const held = heldFor("refund", refundId);
    expect(held).toHaveLength(1);
    expect(await providerReferenceOf("refunds", refundId)).toBe(held[0]!.id);
  });

  it("settles a checkout whose every session answer was lost on the one session PayMongo made", async () => {
    const body = {
      referenceId: unique("lost-order"),
      amount: { amountMinor: 120_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    };
    const idempotencyKey = newIdempotencyKey();
    // Every attempt of the create (the first and its three resends) makes or finds the session and loses the answer.
    suite.sim.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "reset", afterProcessing: true, times: 4 });
    const first = await suite.api.request("POST", "/api/v1/payments/checkouts", { body, idempotencyKey, credential: suite.project.liveKey });
    // No URL is handed out yet: 409 PAYMENT_OUTCOME_UNKNOWN, or 202 while the provider is still being asked.
    expect([202, 409]).toContain(first.status);

    // Retried with its key (or, after a 202, read), the checkout settles on the one session PayMongo made.
    const settled = await eventually(async () => {
      const again = await suite.api.request("POST", "/api/v1/payments/checkouts", { body, idempotencyKey, credential: suite.project.liveKey });
      const current = again.status === 202 ? (await live("GET", `/api/v1/payments/checkouts/${again.body.data.resourceId}`)).body.data : again.body.data;
      return (again.status === 201 || again.status === 202) && current.status === "pending" ? current : undefined;
    }, 20_000);
    const sessions = heldFor("checkout_session", settled.checkoutId as string);
    expect(sessions.map((session) => session.id)).toEqual([new URL(settled.checkoutUrl as string).pathname.split("/").pop()]);
  });

  it("refuses a live checkout of ₱19.99 with 422 naming PayMongo's minimum, before PayMongo is called or anything is written", async () => {
    const referenceId = unique("small-order");
    const response = await live("POST", "/api/v1/payments/checkouts", {
      referenceId,
      amount: { amountMinor: 19_99, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    });
    expectError(response, 422, "AMOUNT_OUT_OF_RANGE");
    expect(response.body.error.details).toContain("amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for gcash");
    expect((suite.sim.objects("checkout_session") as SimObject[]).filter((session) => session.attributes.reference_number === referenceId)).toEqual([]);
    expect(await suite.api.platform.stores.payments.collection({ name: "checkouts" }).count({ referenceId })).toBe(0);
  });

  it("refuses a live QR Ph over ₱50,000 with 422 naming the limit, before PayMongo is called or anything is written", async () => {
    const referenceId = unique("big-qr");
    const intentsBefore = suite.sim.objects("payment_intent").length;
    const response = await live("POST", "/api/v1/payments/intents/qrph", { referenceId, amount: { amountMinor: 50_000_01, currency: "PHP" }, description: "A motorbike" });
    expectError(response, 422, "AMOUNT_OUT_OF_RANGE");
    expect(response.body.error.details).toEqual(["amount.amountMinor: 5000001 is above PayMongo's limit for qrph (maximum is 5000000 centavos)"]);
    expect(suite.sim.objects("payment_intent")).toHaveLength(intentsBefore);
    expect(await suite.api.platform.stores.payments.collection({ name: "payment_intents" }).count({ referenceId })).toBe(0);
  });

  it("refuses a live subscription to a plan under PayMongo's ₱100 for links with 422, writing neither it nor its invoice", async () => {
    const plan = await live("POST", "/api/v1/payments/plans", { name: "Sticker club", amount: 99_00, interval: "monthly" });
    expect(plan.status).toBe(201);
    const customer = await live("POST", "/api/v1/payments/customers", { customerReference: unique("member"), email: "member@example.ph" });
    const referenceId = unique("sticker-club");
    const linksBefore = suite.sim.objects("link").length;
    const response = await live("POST", "/api/v1/payments/subscriptions", { customerId: customer.body.data.customerId, referenceId, priceId: plan.body.data.planId });
    expectError(response, 422, "AMOUNT_OUT_OF_RANGE");
    expect(response.body.error.details).toEqual(["amount.amountMinor: 9900 is below PayMongo's minimum of 10000 centavos for payment links"]);
    expect(await suite.api.platform.stores.billing.collection({ name: "subscriptions" }).count({ referenceId })).toBe(0);
    expect(await suite.api.platform.stores.billing.collection({ name: "invoices" }).count({})).toBe(0);
    expect(suite.sim.objects("link")).toHaveLength(linksBefore);
  });
});
