import jsqr from "jsqr";
import { PNG } from "pngjs";
import { startPaymongoSimulator, type PaymongoSimulator } from "@bayad/paymongo-simulator";
import { AppError } from "@bayad/kit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderNoAnswerError, ProviderRefusedRefundError } from "../port.js";
import { createPaymongoClient, type PaymongoClient } from "./paymongo-client.js";
import { PaymongoRejectedError } from "./paymongo-errors.js";
import { createPaymongoProvider, type PaymongoProvider } from "./paymongo-provider.js";
import { context, newLiveKey, newTestKey, php, thrownBy } from "./test-support/simulator-fixture.js";

let simulator: PaymongoSimulator;
const clients: PaymongoClient[] = [];

beforeAll(async () => {
  simulator = await startPaymongoSimulator();
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await simulator.close();
});

/** A provider on a fresh live account of its own at the simulator. */
function liveProvider(options: { paymentMethodTypes?: string[]; returnUrl?: string; responseTimeoutMs?: number } = {}): PaymongoProvider {
  const client = createPaymongoClient({ apiBase: simulator.url, secretKey: newLiveKey(), responseTimeoutMs: options.responseTimeoutMs ?? 2_000 });
  clients.push(client);
  return createPaymongoProvider({
    client,
    paymentMethodTypes: options.paymentMethodTypes ?? ["qrph", "gcash", "card"],
    livemode: true,
    ...(options.returnUrl !== undefined ? { returnUrl: options.returnUrl } : {}),
  });
}

const attributesOf = (id: string) => (simulator.find(id) as { attributes: Record<string, unknown> }).attributes;

/** The simulator's objects of a type that Bayad made for its resource `resourceId` (by their metadata), in every account. */
const madeFor = (type: string, resourceId: string) =>
  (simulator.objects(type) as Array<{ id: string; attributes: { metadata?: Record<string, string> | null } }>).filter(
    (object) => object.attributes.metadata?.bayad_resource_id === resourceId,
  );

const checkoutRequest = (checkoutId: string, amountMinor = 25_000) => ({
  checkoutId,
  referenceId: `order-${checkoutId}`,
  amount: php(amountMinor),
  successUrl: "https://shop.example/paid",
  cancelUrl: "https://shop.example/cart",
  metadata: { cart: "12" },
});

/** A paid PayMongo payment of `amountMinor`, through a checkout session. */
async function paidPayment(provider: PaymongoProvider, amountMinor: number): Promise<string> {
  const session = await provider.createCheckoutSession(checkoutRequest(`chk_${Math.random().toString(36).slice(2)}`, amountMinor), context());
  // GCash: PayMongo refunds it (QR Ph, the account's first method, it does not).
  return (await simulator.payCheckoutSession(session.providerReference, { method: "gcash" })).paymentId;
}

describe("createPaymongoProvider", () => {
  it("is named paymongo and offers the account's method types", () => {
    const provider = liveProvider({ paymentMethodTypes: ["qrph", "gcash"] });
    expect(provider.name).toBe("paymongo");
    expect(provider.paymentMethods).toEqual(["qrph", "gcash"]);
  });

  it("refuses a key of the other mode than the account's", () => {
    const client = createPaymongoClient({ apiBase: simulator.url, secretKey: newTestKey() });
    clients.push(client);
    const error = (() => {
      try {
        createPaymongoProvider({ client, paymentMethodTypes: ["gcash"], livemode: true });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^secretKey: a test key/)] });
  });

  it("leaves payer decisions to PayMongo", () => {
    expect(() => liveProvider().decidePayment(php(10_000), {}, "pay")).toThrow(
      expect.objectContaining({ code: "INVALID_STATE_TRANSITION", message: "Payer actions are simulated only in the sandbox." }),
    );
  });
});

describe("checkout sessions", () => {
  it("creates a session with one line item, the reference, the URLs, the account's methods and Bayad's ids in metadata", async () => {
    const provider = liveProvider();
    const session = await provider.createCheckoutSession(checkoutRequest("chk_1"), context("idem-key-checkout-0001"));

    expect(session.providerReference).toMatch(/^cs_/);
    expect(session.pageToken).toBe("");
    const stored = attributesOf(session.providerReference);
    expect(session.checkoutUrl).toBe(stored.checkout_url);
    expect(session.checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(stored).toMatchObject({
      line_items: [expect.objectContaining({ name: "order-chk_1", amount: 25_000, currency: "PHP", quantity: 1 })],
      payment_method_types: ["qrph", "gcash", "card"],
      success_url: "https://shop.example/paid",
      cancel_url: "https://shop.example/cart",
      reference_number: "order-chk_1",
      livemode: true,
      metadata: { bayad_resource_id: "chk_1", bayad_idempotency_key: "idem-key-checkout-0001" },
    });
  });

  it("reads a paid session back with its payment", async () => {
    const provider = liveProvider();
    const session = await provider.createCheckoutSession(checkoutRequest("chk_2", 30_000), context());
    expect(await provider.retrieveCheckoutSessionById(session.providerReference)).toEqual({
      id: session.providerReference,
      status: "active",
      payments: [],
      metadata: expect.objectContaining({ bayad_resource_id: "chk_2" }),
    });

    const { paymentId } = await simulator.payCheckoutSession(session.providerReference, { method: "gcash" });
    const paid = await provider.retrieveCheckoutSessionById(session.providerReference);
    // A paid session still reads active at PayMongo: its payments say it was paid.
    expect(paid.status).toBe("active");
    expect(paid.payments).toEqual([
      expect.objectContaining({ id: paymentId, status: "paid", amount: 30_000, currency: "PHP", method: "gcash", paymentIntentId: expect.stringMatching(/^pi_/), paidAt: expect.any(Date) }),
    ]);
  });

  it("answers a create whose answer was lost with the session it made, sent again under the same Idempotency-Key", async () => {
    const provider = liveProvider({ responseTimeoutMs: 300 });
    simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "timeout", afterProcessing: true });
    const session = await provider.createCheckoutSession(checkoutRequest("chk_3"), context("idem-key-lost-chk3"));
    expect(madeFor("checkout_session", "chk_3").map((made) => made.id)).toEqual([session.providerReference]);
    // Reconciliation asks again with the same key: the same session, still one.
    const found = await provider.retrieveCheckoutSession(checkoutRequest("chk_3"), context("idem-key-lost-chk3"));
    expect(found?.providerReference).toBe(session.providerReference);
    expect(madeFor("checkout_session", "chk_3")).toHaveLength(1);
  });

  it("is ProviderNoAnswerError once every attempt lost its answer, and reconciliation then finds the one session made", async () => {
    const provider = liveProvider();
    simulator.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "reset", afterProcessing: true, times: 4 });
    await expect(provider.createCheckoutSession(checkoutRequest("chk_3b"), context("idem-key-lost-chk3b"))).rejects.toBeInstanceOf(ProviderNoAnswerError);
    const found = await provider.retrieveCheckoutSession(checkoutRequest("chk_3b"), context("idem-key-lost-chk3b"));
    expect(madeFor("checkout_session", "chk_3b").map((made) => made.id)).toEqual([found?.providerReference]);
  });

  it("refuses an amount no enabled method takes before calling PayMongo, naming the amount and each limit", async () => {
    const error = await thrownBy(() => liveProvider().createCheckoutSession(checkoutRequest("chk_4", 1_999), context()));
    expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", httpStatus: 422 });
    expect((error as AppError).details).toEqual([
      "amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for qrph",
      expect.stringMatching(/for gcash$/),
      expect.stringMatching(/for card$/),
    ]);
    expect(madeFor("checkout_session", "chk_4")).toEqual([]);
  });

  it("offers only the methods that take the amount: ₱60,000 is over QR Ph's and within cards' and GCash's", async () => {
    const session = await liveProvider().createCheckoutSession(checkoutRequest("chk_5", 6_000_000), context());
    expect(attributesOf(session.providerReference)).toMatchObject({ payment_method_types: ["gcash", "card"] });
  });
});

describe("confirmPaymentIntent", () => {
  const confirmation = (paymentIntentId: string, extra: { returnUrl?: string; paymentMethodType?: string } = {}) => ({
    paymentIntentId,
    referenceId: `order-${paymentIntentId}`,
    amount: php(45_000),
    ...extra,
  });

  it("creates an intent with Bayad's metadata, a method and attaches it, handing back the redirect", async () => {
    const provider = liveProvider();
    const confirmed = await provider.confirmPaymentIntent(confirmation("pi_bayad_1", { returnUrl: "https://shop.example/return" }), context("idem-key-confirm-0001"));

    expect(confirmed.outcome).toBe("processing");
    expect(confirmed.providerReference).toMatch(/^pi_/);
    expect(confirmed.nextActionUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+/);
    const intent = attributesOf(confirmed.providerReference);
    expect(intent).toMatchObject({
      amount: 45_000,
      payment_method_allowed: ["gcash"],
      status: "awaiting_next_action",
      metadata: { bayad_resource_id: "pi_bayad_1", bayad_idempotency_key: "idem-key-confirm-0001" },
      next_action: { type: "redirect", redirect: { url: confirmed.nextActionUrl, return_url: "https://shop.example/return" } },
    });

    const { paymentId } = await simulator.payPaymentIntent(confirmed.providerReference);
    expect(await provider.retrievePaymentIntentById(confirmed.providerReference)).toEqual({
      id: confirmed.providerReference,
      status: "succeeded",
      amount: 45_000,
      currency: "PHP",
      payments: [expect.objectContaining({ id: paymentId, status: "paid", amount: 45_000, method: "gcash", paymentIntentId: confirmed.providerReference })],
      metadata: { bayad_resource_id: "pi_bayad_1", bayad_idempotency_key: "idem-key-confirm-0001" },
    });
  });

  it("uses the method asked for and the provider's return URL when the request has none", async () => {
    const provider = liveProvider({ returnUrl: "https://bayad.example/return" });
    const confirmed = await provider.confirmPaymentIntent(confirmation("pi_bayad_2", { paymentMethodType: "paymaya" }), context());
    expect(attributesOf(confirmed.providerReference)).toMatchObject({
      payment_method_allowed: ["paymaya"],
      next_action: { redirect: { return_url: "https://bayad.example/return" } },
    });
  });

  it("reads a decline after the payer's attempt as last_payment_error", async () => {
    const provider = liveProvider({ returnUrl: "https://bayad.example/return" });
    const confirmed = await provider.confirmPaymentIntent(confirmation("pi_bayad_3"), context());
    await simulator.failPaymentIntent(confirmed.providerReference, { code: "insufficient_funds", message: "Not enough funds." });
    expect(await provider.retrievePaymentIntentById(confirmed.providerReference)).toMatchObject({
      status: "awaiting_payment_method",
      lastPaymentError: { code: "insufficient_funds", message: "Not enough funds." },
      payments: [expect.objectContaining({ status: "failed", failedCode: "insufficient_funds" })],
    });
  });

  it("refuses without a return URL, as PayMongo does, naming it", async () => {
    const error = await thrownBy(() => liveProvider().confirmPaymentIntent(confirmation("pi_bayad_4"), context()));
    expect(error).toMatchObject({ code: "PROVIDER_REJECTED", details: [expect.stringMatching(/^return_url: .+ \(parameter_required\)$/)] });
  });

  it("refuses card and accounts without a redirect method: card details never pass through Bayad", async () => {
    const onlyCards = liveProvider({ paymentMethodTypes: ["card", "qrph"] });
    await expect(onlyCards.confirmPaymentIntent(confirmation("pi_bayad_5"), context())).rejects.toMatchObject({
      code: "PROVIDER_REJECTED",
      details: [expect.stringMatching(/^paymentMethodType: /)],
    });
    await expect(liveProvider().confirmPaymentIntent(confirmation("pi_bayad_6", { paymentMethodType: "card" }), context())).rejects.toMatchObject({
      code: "PROVIDER_REJECTED",
    });
  });
});

describe("createRedirectPaymentIntent", () => {
  const redirect = (paymentIntentId: string, method: { type: "gcash" | "maya" | "grabpay" | "shopeepay" | "online_banking"; bankCode?: "bpi" | "ubp" | "bdo" | "landbank" | "metrobank" }, amountMinor = 45_000) => ({
    paymentIntentId,
    referenceId: `order-${paymentIntentId}`,
    amount: php(amountMinor),
    method,
    returnUrl: "https://shop.example/orders/1",
  });

  it("offers the account's intent methods in Bayad's names, banks one by one, whichever list names them", () => {
    const provider = liveProvider({ paymentMethodTypes: ["card", "qrph", "gcash", "paymaya", "dob", "brankas_bdo", "shopee_pay"] });
    expect(provider.paymentIntentMethods).toEqual([
      { type: "gcash" },
      { type: "maya" },
      { type: "online_banking", bankCode: "bpi" },
      { type: "online_banking", bankCode: "ubp" },
      { type: "online_banking", bankCode: "bdo" },
      { type: "shopeepay" },
    ]);
  });

  it("creates the intent with the PI type, its method, and attaches it with the return URL, handing back PayMongo's redirect", async () => {
    const provider = liveProvider({ paymentMethodTypes: ["paymaya"] });
    const started = await provider.createRedirectPaymentIntent(redirect("pi_bayad_r1", { type: "maya" }), context("idem-key-redirect-0001"));
    expect(started).toMatchObject({ outcome: "awaiting_payer", pageToken: "" });
    expect(attributesOf(started.providerReference)).toMatchObject({
      payment_method_allowed: ["paymaya"],
      status: "awaiting_next_action",
      metadata: { bayad_resource_id: "pi_bayad_r1", bayad_idempotency_key: "idem-key-redirect-0001" },
      next_action: { type: "redirect", redirect: { url: started.redirectUrl, return_url: "https://shop.example/orders/1" } },
    });
  });

  it.each([
    ["bpi", "dob"],
    ["ubp", "dob"],
    ["bdo", "brankas"],
    ["landbank", "brankas"],
    ["metrobank", "brankas"],
  ] as const)("sends online banking with %s as PayMongo's %s with the bank code", async (bankCode, type) => {
    const provider = liveProvider({ paymentMethodTypes: ["dob", "brankas"] });
    const started = await provider.createRedirectPaymentIntent(redirect(`pi_bayad_${bankCode}`, { type: "online_banking", bankCode }), context());
    expect(attributesOf(started.providerReference)).toMatchObject({ payment_method_allowed: [type], status: "awaiting_next_action" });
  });

  it("refuses an amount outside PayMongo's limit for the method before any call", async () => {
    const provider = liveProvider({ paymentMethodTypes: ["gcash", "dob"] });
    // Any call would meet this fault, so the answers below can only come from the adapter's own check.
    simulator.injectFault({ status: 500, times: 10 });
    await expect(provider.createRedirectPaymentIntent(redirect("pi_bayad_small", { type: "gcash" }, 1999), context())).rejects.toMatchObject({
      code: "AMOUNT_OUT_OF_RANGE",
      details: ["amount.amountMinor: 1999 is below PayMongo's minimum of 2000 centavos for gcash"],
    });
    await expect(provider.createRedirectPaymentIntent(redirect("pi_bayad_big", { type: "online_banking", bankCode: "bpi" }, 5_000_001), context())).rejects.toMatchObject({
      code: "AMOUNT_OUT_OF_RANGE",
      details: [expect.stringMatching(/^amount\.amountMinor: \d+ is above PayMongo's limit for dob \(maximum is 5000000 centavos\)$/)],
    });
  });
});

describe("createQrPh", () => {
  it("attaches a qrph method with its expiry and hands back the image, its PNG and the payload it holds", async () => {
    const provider = liveProvider();
    const qr = await provider.createQrPh(
      { paymentIntentId: "pi_bayad_qr1", referenceId: "order-qr1", amount: php(12_345), description: "Kape", expirySeconds: 600 },
      context("idem-key-qrph-00001"),
    );

    expect(qr.providerReference).toMatch(/^pi_/);
    expect(qr.pageToken).toBe("");
    expect(qr.imageUrl).toBe(`data:image/png;base64,${qr.imagePngBase64}`);
    const png = PNG.sync.read(Buffer.from(qr.imagePngBase64!, "base64"));
    const decoded = jsqr.default(Uint8ClampedArray.from(png.data), png.width, png.height)?.data;
    expect(decoded).toBeTruthy();
    expect(qr.payload).toBe(decoded);

    const intent = attributesOf(qr.providerReference);
    expect(intent).toMatchObject({
      amount: 12_345,
      payment_method_allowed: ["qrph"],
      status: "awaiting_next_action",
      metadata: { bayad_resource_id: "pi_bayad_qr1", bayad_idempotency_key: "idem-key-qrph-00001" },
    });
    const code = attributesOf((intent.next_action as { code: { id: string } }).code.id);
    expect(Number(code.expires_at) - Number(code.created_at)).toBe(600);
  });

  it("is paid and expires as PayMongo reports it", async () => {
    const provider = liveProvider();
    const request = { referenceId: "order-qr2", amount: php(5_000), description: "Kape" };
    const paid = await provider.createQrPh({ ...request, paymentIntentId: "pi_bayad_qr2" }, context());
    await simulator.payPaymentIntent(paid.providerReference);
    expect(await provider.retrievePaymentIntentById(paid.providerReference)).toMatchObject({
      status: "succeeded",
      payments: [expect.objectContaining({ status: "paid", method: "qrph" })],
    });

    const expired = await provider.createQrPh({ ...request, paymentIntentId: "pi_bayad_qr3" }, context());
    await simulator.expireQrPh(expired.providerReference);
    expect(await provider.retrievePaymentIntentById(expired.providerReference)).toMatchObject({ status: "awaiting_payment_method", payments: [] });
  });

  it("passes on an expiry PayMongo refuses, naming expiry_seconds", async () => {
    const error = await thrownBy(() =>
      liveProvider().createQrPh({ paymentIntentId: "pi_bayad_qr4", referenceId: "order-qr4", amount: php(5_000), description: "x", expirySeconds: 30 }, context()),
    );
    expect(error).toMatchObject({ code: "PROVIDER_REJECTED", details: [expect.stringMatching(/^expiry_seconds: .+ \(parameter_below_minimum\)$/)] });
  });
});

describe("refunds", () => {
  it("refunds a payment by PayMongo's id with Bayad's metadata, the reason mapped and the text in notes", async () => {
    const provider = liveProvider();
    const paymentId = await paidPayment(provider, 40_000);
    const { providerReference } = await provider.createRefund(
      { refundId: "re_bayad_1", paymentId: "pay_bayad_1", providerPaymentId: paymentId, amount: php(15_000), reason: "Customer changed their mind" },
      context("idem-key-refund-0001"),
    );

    expect(providerReference).toMatch(/^ref_/);
    expect(attributesOf(providerReference)).toMatchObject({
      amount: 15_000,
      payment_id: paymentId,
      reason: "others",
      notes: "Customer changed their mind",
      status: "pending",
      metadata: { bayad_resource_id: "re_bayad_1", bayad_idempotency_key: "idem-key-refund-0001" },
    });
    expect(await provider.retrieveRefundById(providerReference)).toEqual({
      id: providerReference,
      status: "pending",
      amount: 15_000,
      currency: "PHP",
      paymentId,
      metadata: { bayad_resource_id: "re_bayad_1", bayad_idempotency_key: "idem-key-refund-0001" },
    });
    await simulator.settleRefund(providerReference, "succeeded");
    expect((await provider.retrieveRefundById(providerReference)).status).toBe("succeeded");
  });

  it("keeps PayMongo's own reasons, and cuts notes at 255 characters", async () => {
    const provider = liveProvider();
    const paymentId = await paidPayment(provider, 40_000);
    const duplicate = await provider.createRefund(
      { refundId: "re_bayad_2", paymentId: "pay_bayad_2", providerPaymentId: paymentId, amount: php(1_000), reason: "duplicate" },
      context(),
    );
    expect(attributesOf(duplicate.providerReference)).toMatchObject({ reason: "duplicate", notes: null });
    // PayMongo takes one open refund of a payment at a time.
    await simulator.settleRefund(duplicate.providerReference, "succeeded");
    const long = await provider.createRefund(
      { refundId: "re_bayad_3", paymentId: "pay_bayad_2", providerPaymentId: paymentId, amount: php(1_000), reason: "x".repeat(300) },
      context(),
    );
    expect(attributesOf(long.providerReference)).toMatchObject({ reason: "others", notes: "x".repeat(255) });
  });

  it("sends a refund whose answer was lost again under the same Idempotency-Key: one refund, its id answered", async () => {
    const provider = liveProvider({ responseTimeoutMs: 300 });
    const paymentId = await paidPayment(provider, 40_000);
    simulator.injectFault({ method: "POST", path: "/v1/refunds", status: "timeout", afterProcessing: true });
    const { providerReference } = await provider.createRefund(
      { refundId: "re_lost_once", paymentId: "pay_l", providerPaymentId: paymentId, amount: php(2_000), reason: "others" },
      context("idem-key-lost-000000"),
    );
    expect(madeFor("refund", "re_lost_once").map((made) => made.id)).toEqual([providerReference]);
  });

  it("finds a refund whose every answer was lost among the payment's refunds, made exactly once", async () => {
    const provider = liveProvider();
    const paymentId = await paidPayment(provider, 40_000);
    const other = await paidPayment(provider, 40_000);
    await provider.createRefund({ refundId: "re_other", paymentId: "pay_o", providerPaymentId: other, amount: php(500), reason: "others" }, context());

    simulator.injectFault({ method: "POST", path: "/v1/refunds", status: "reset", afterProcessing: true, times: 4 });
    await expect(
      provider.createRefund({ refundId: "re_lost", paymentId: "pay_l", providerPaymentId: paymentId, amount: php(2_000), reason: "others" }, context("idem-key-lost-000001")),
    ).rejects.toBeInstanceOf(ProviderNoAnswerError);

    const refunds = await provider.listRefundsOfPayment(paymentId);
    expect(refunds).toEqual([
      expect.objectContaining({ amount: 2_000, paymentId, metadata: { bayad_resource_id: "re_lost", bayad_idempotency_key: "idem-key-lost-000001" } }),
    ]);
  });

  it("answers PROVIDER_REJECTED when PayMongo refuses the key reused with other parameters, and makes no second refund", async () => {
    const provider = liveProvider();
    const paymentId = await paidPayment(provider, 40_000);
    const request = { refundId: "re_twice", paymentId: "pay_t", providerPaymentId: paymentId, amount: php(2_000), reason: "others" };
    await provider.createRefund(request, context("idem-key-twice-00001"));
    const error = await thrownBy(() => provider.createRefund({ ...request, amount: php(3_000) }, context("idem-key-twice-00001")));
    expect(error).toMatchObject({ code: "PROVIDER_REJECTED", details: [expect.stringMatching(/\(idempotency_key_mismatch\)$/)] });
    expect(madeFor("refund", "re_twice")).toHaveLength(1);
  });

  it("refuses without PayMongo's payment id, naming paymentId, and passes on PayMongo's refusal with its code", async () => {
    const provider = liveProvider();
    const unknown = await thrownBy(() => provider.createRefund({ refundId: "re_bayad_4", paymentId: "pay_bayad_4", amount: php(1_000), reason: "others" }, context()));
    expect(unknown).toBeInstanceOf(ProviderRefusedRefundError);
    expect(unknown).toMatchObject({ code: "REFUND_NOT_ALLOWED", details: [expect.stringMatching(/^paymentId: .*\(rule: provider_payment_unknown\)$/)] });

    const paymentId = await paidPayment(provider, 3_000);
    const error = await thrownBy(() =>
      provider.createRefund({ refundId: "re_bayad_5", paymentId: "pay_bayad_5", providerPaymentId: paymentId, amount: php(3_001), reason: "others" }, context()),
    );
    expect(error).toBeInstanceOf(ProviderRefusedRefundError);
    expect((error as AppError).code).toBe("REFUND_NOT_ALLOWED");
    expect((error as AppError).details).toEqual(["provider: parameter_above_maximum", expect.stringMatching(/^amount: .+ \(parameter_above_maximum\)$/)]);
    expect((error as AppError).cause).toBeInstanceOf(PaymongoRejectedError);
  });
});

describe("links", () => {
  it("creates a /v1/links link with the Bayad id in remarks and reads it back paid", async () => {
    const provider = liveProvider();
    const link = await provider.createHostedPayment(
      { kind: "payment_link", resourceId: "plink_1", referenceId: "order-l1", amount: php(19_900), description: "Tuition, first term" },
      context(),
    );

    expect(link.providerReference).toMatch(/^link_/);
    expect(link.referenceNumber).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(link.url).toContain(link.referenceNumber);
    expect(link.pageToken).toBe("");
    expect(attributesOf(link.providerReference)).toMatchObject({ amount: 19_900, description: "Tuition, first term", remarks: "plink_1" });
    expect(await provider.retrieveLinkById(link.providerReference)).toEqual({
      id: link.providerReference,
      status: "unpaid",
      referenceNumber: link.referenceNumber,
      checkoutUrl: link.url,
      payments: [],
      amount: 19_900,
      currency: "PHP",
      // The link's own fee and taxes, as the simulator reports them before any payment.
      fee: 0,
    });

    const { paymentId } = await simulator.payLink(link.providerReference);
    expect(await provider.retrieveLinkById(link.providerReference)).toMatchObject({
      status: "paid",
      payments: [expect.objectContaining({ id: paymentId, status: "paid", amount: 19_900 })],
    });
  });

  it("reads a link back as the port's hosted payment: open, then paid with its payment's id, method and time", async () => {
    const provider = liveProvider();
    const link = await provider.createHostedPayment(
      { kind: "payment_link", resourceId: "plink_state", referenceId: "order-s1", amount: php(25_050), description: "A class" },
      context(),
    );
    expect(await provider.hostedPaymentState?.(link.providerReference)).toEqual({ status: "open", amountMinor: 25_050, currency: "PHP" });
    const { paymentId } = await simulator.payLink(link.providerReference, { method: "gcash" });
    expect(await provider.hostedPaymentState?.(link.providerReference)).toEqual({
      status: "paid",
      amountMinor: 25_050,
      currency: "PHP",
      providerPaymentId: paymentId,
      method: "gcash",
      paymentMethod: "gcash",
      // What PayMongo kept: the payment's amount less its net_amount.
      fee: 25_050 - (attributesOf(paymentId).net_amount as number),
      paidAt: expect.any(Date),
    });
    expect(attributesOf(paymentId).net_amount).toBeLessThan(25_050);
  });

  it("cuts a description to PayMongo's 255 characters, and falls back to the reference when it is blank", async () => {
    const provider = liveProvider();
    const long = await provider.createHostedPayment(
      { kind: "invoice", resourceId: "in_1", referenceId: "inv-1", amount: php(19_900), description: "é".repeat(300) },
      context(),
    );
    expect(attributesOf(long.providerReference)).toMatchObject({ description: "é".repeat(255), remarks: "in_1" });
    const blank = await provider.createHostedPayment({ kind: "invoice", resourceId: "in_2", referenceId: "inv-2", amount: php(19_900), description: " " }, context());
    expect(attributesOf(blank.providerReference)).toMatchObject({ description: "inv-2" });
  });

  it("refuses a link under PayMongo's ₱100 for links before calling PayMongo", async () => {
    const error = await thrownBy(() =>
      liveProvider().createHostedPayment({ kind: "payment_link", resourceId: "plink_small", referenceId: "small", amount: php(9_999), description: "Small" }, context()),
    );
    expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", details: ["amount.amountMinor: 9999 is below PayMongo's minimum of 10000 centavos for payment links"] });
    expect((simulator.objects("link") as Array<{ attributes: { remarks: string } }>).filter((link) => link.attributes.remarks === "plink_small")).toEqual([]);
  });
});

describe("customers", () => {
  it("creates a customer from a name and an e-mail", async () => {
    const provider = liveProvider();
    const { providerReference } = await provider.createCustomer({ customerId: "cus_bayad_1", name: "Maria Clara de los Santos", email: "maria@example.com" });
    expect(providerReference).toMatch(/^cus_/);
    expect(attributesOf(providerReference)).toMatchObject({
      first_name: "Maria",
      last_name: "Clara de los Santos",
      email: "maria@example.com",
      default_device: "email",
    });
    const nameless = await provider.createCustomer({ customerId: "cus_bayad_2", email: "juan@example.com" });
    expect(attributesOf(nameless.providerReference)).toMatchObject({ first_name: "juan", last_name: "juan" });
  });
});

describe("look-ups", () => {
  it("answer PROVIDER_REJECTED (404, resource_not_found) for another account's object", async () => {
    const session = await liveProvider().createCheckoutSession(checkoutRequest("chk_9"), context());
    const error = await thrownBy(() => liveProvider().retrieveCheckoutSessionById(session.providerReference));
    expect(error).toBeInstanceOf(PaymongoRejectedError);
    expect(error).toMatchObject({ providerStatus: 404 });
    expect((error as PaymongoRejectedError).hasCode("resource_not_found")).toBe(true);
  });
});
