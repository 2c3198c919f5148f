import { startXenditSimulator, type XenditSimulator } from "@bayad/xendit-simulator";
import { AppError } from "@bayad/kit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderNoAnswerError, ProviderRefusedRefundError } from "../port.js";
import { readQrDataUrl } from "../paymongo/qr-data-url.js";
import { createXenditProvider, type XenditProvider, type XenditProviderOptions } from "./xendit-provider.js";
import { context, newId, newXenditTestKey, php, thrownBy } from "./test-support/xendit-fixture.js";

let simulator: XenditSimulator;
const providers: XenditProvider[] = [];

beforeAll(async () => {
  // Refunds settle only when a test says so, so "one pending refund at a time" is in the test's hands.
  simulator = await startXenditSimulator({ settings: { refundSettlementMs: null } });
});
afterEach(() => simulator.clearFaults());
afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
  await simulator.close();
});

/** A provider on a fresh test account of its own at the simulator. */
function provider(options: Partial<XenditProviderOptions> = {}): XenditProvider {
  const made = createXenditProvider({ secretKey: newXenditTestKey(), apiBase: simulator.url, responseTimeoutMs: 1_000, ...options });
  providers.push(made);
  return made;
}

const id = newId;

const checkoutRequest = (amountMinor = 25_050) => {
  const checkoutId = id("chk");
  return { checkoutId, referenceId: `order-${checkoutId}`, amount: php(amountMinor), successUrl: "https://shop.example/paid", cancelUrl: "https://shop.example/cart", metadata: {} };
};

const redirectRequest = (method: "gcash" | "maya" | "grabpay" | "shopeepay" | "online_banking", amountMinor = 15_075) => ({
  paymentIntentId: id("pi"),
  referenceId: "order-77",
  amount: php(amountMinor),
  method: { type: method },
  returnUrl: "https://shop.example/back",
});

const sessionsFor = (checkoutId: string) => simulator.objects("session").filter((session) => session["reference_id"] === checkoutId);

describe("createXenditProvider", () => {
  it("makes a hosted checkout session that, once paid, reads back COMPLETED with its payment request", async () => {
    const xendit = provider({ channels: ["GCASH", "QRPH"] });
    const request = checkoutRequest(25_050);
    const session = await xendit.createCheckoutSession(request, context());
    expect(session.providerReference).toMatch(/^ps-/);
    expect(session.checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(session.pageToken).toBe("");
    const made = simulator.find(session.providerReference);
    expect(made).toMatchObject({ reference_id: request.checkoutId, amount: 250.5, mode: "PAYMENT_LINK", allowed_payment_channels: ["GCASH", "QRPH"] });

    expect((await xendit.retrieveSessionById(session.providerReference)).state).toBe("open");
    const paid = simulator.paySession(session.providerReference, "GCASH");
    const read = await xendit.retrieveSessionById(session.providerReference);
    expect(read).toMatchObject({ state: "completed", referenceId: request.checkoutId, amountMinor: 25_050, paymentRequestId: paid.paymentRequestId, paymentId: paid.paymentId });
  });

  it("offers a session only the channels whose limits take the amount, and refuses one none takes before calling", async () => {
    const xendit = provider({ channels: ["GCASH", "QRPH"] });
    const session = await xendit.createCheckoutSession(checkoutRequest(60_000_00), context());
    expect(simulator.find(session.providerReference)?.["allowed_payment_channels"]).toEqual(["GCASH"]);

    const request = checkoutRequest(100_000_01);
    const error = await thrownBy(() => xendit.createCheckoutSession(request, context()));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("AMOUNT_OUT_OF_RANGE");
    expect(sessionsFor(request.checkoutId)).toHaveLength(0);
  });

  it("hands back the e-wallet's page for a redirect intent, made for the exact amount", async () => {
    const xendit = provider();
    const request = redirectRequest("maya", 15_075);
    const intent = await xendit.createRedirectPaymentIntent(request, context());
    expect(intent.outcome).toBe("awaiting_payer");
    expect(intent.providerReference).toMatch(/^pr-/);
    expect(intent.redirectUrl).toMatch(new RegExp(`/pay/${intent.providerReference}$`));
    expect(simulator.find(intent.providerReference)).toMatchObject({ channel_code: "PAYMAYA", request_amount: 150.75, reference_id: request.paymentIntentId });
    expect((await xendit.retrievePaymentRequestById(intent.providerReference)).state).toBe("awaiting_payer");
  });

  it("refuses a method the account does not offer without calling Xendit", async () => {
    const xendit = provider({ channels: ["GCASH"] });
    const error = await thrownBy(() => xendit.createRedirectPaymentIntent(redirectRequest("grabpay"), context()));
    expect((error as AppError).code).toBe("PAYMENT_METHOD_NOT_OFFERED");
    expect(xendit.paymentIntentMethods).toEqual([{ type: "gcash" }]);
  });

  it("renders Xendit's QR Ph string as a PNG that scans back to the same string", async () => {
    const xendit = provider();
    const code = await xendit.createQrPh({ paymentIntentId: id("pi"), referenceId: "order-9", amount: php(49_999_99), description: "Order 9" }, context());
    expect(code.providerReference).toMatch(/^pr-/);
    expect(code.payload).toBe(xenditQrString(code.providerReference));
    expect(code.imageUrl.startsWith("data:image/png;base64,")).toBe(true);
    const scanned = readQrDataUrl(code.imageUrl);
    expect(scanned.payload).toBe(code.payload);
    expect(scanned.pngBase64).toBe(code.imagePngBase64);
  });

  it("refunds part of a payment, then the rest, each by the payment request", async () => {
    const xendit = provider();
    const intent = await xendit.createRedirectPaymentIntent(redirectRequest("gcash", 1_000_00), context());
    const { paymentId } = simulator.payPaymentRequest(intent.providerReference);

    const partial = await xendit.createRefund({ refundId: id("re"), paymentId: "pi_1", amount: php(300_25), reason: "requested_by_customer", providerPaymentId: intent.providerReference }, context());
    expect(await xendit.retrieveRefundById(partial.providerReference)).toMatchObject({ state: "pending", amountMinor: 300_25, paymentRequestId: intent.providerReference });
    expect(simulator.find(partial.providerReference)).toMatchObject({ reason: "REQUESTED_BY_CUSTOMER", amount: 300.25 });
    simulator.settleRefund(partial.providerReference, "SUCCEEDED");

    // The payment (py-) names its request: Bayad may know either.
    const rest = await xendit.createRefund({ refundId: id("re"), paymentId: "pi_1", amount: php(699_75), reason: "changed their mind", providerPaymentId: paymentId }, context());
    expect(simulator.find(rest.providerReference)).toMatchObject({ payment_request_id: intent.providerReference, amount: 699.75, reason: "OTHERS" });
    expect(simulator.find(rest.providerReference)?.["metadata"]).toMatchObject({ bayad_reason: "changed their mind" });
    simulator.settleRefund(rest.providerReference, "SUCCEEDED");
    expect((await xendit.retrieveRefundById(rest.providerReference)).state).toBe("succeeded");

    const more = await thrownBy(() => xendit.createRefund({ refundId: id("re"), paymentId: "pi_1", amount: php(1), reason: "others", providerPaymentId: intent.providerReference }, context()));
    expect(more).toBeInstanceOf(ProviderRefusedRefundError);
    expect((more as AppError).details).toContain("provider: REFUND_AMOUNT_EXCEEDED");
  });

  it("refuses a QR Ph refund and a second pending one by the published rules, before calling", () => {
    const xendit = provider();
    const payment = { paymentId: "pi_1", amountMinor: 500_00, refundableMinor: 500_00, providerPaymentId: "pr-1", openRefunds: 0 };
    const qr = xendit.refundRefusal?.({ ...payment, method: "QRPH" }, 100_00, new Date());
    expect(qr?.code).toBe("REFUND_NOT_ALLOWED");
    expect(qr?.details?.[0]).toContain("rule: method_not_refundable");
    expect(xendit.refundRefusal?.({ ...payment, method: "GCASH", openRefunds: 1 }, 100_00, new Date())?.code).toBe("REFUND_IN_PROGRESS");
    const paidAt = new Date("2026-01-01T00:00:00Z");
    expect(xendit.refundRefusal?.({ ...payment, method: "GCASH", paidAt }, 100_00, new Date("2026-07-01T00:00:00Z"))?.code).toBe("REFUND_WINDOW_PASSED");
    expect(xendit.refundRefusal?.({ ...payment, method: "PAYMAYA", paidAt }, 100_00, new Date("2026-07-01T00:00:00Z"))).toBeUndefined();
  });

  it("answers a session create whose answer was lost with ProviderNoAnswerError; the session exists at Xendit but cannot be looked up", async () => {
    const xendit = provider();
    const request = checkoutRequest();
    simulator.injectFault({ method: "POST", path: "/sessions", status: "reset", afterProcessing: true });
    await expect(xendit.createCheckoutSession(request, context())).rejects.toBeInstanceOf(ProviderNoAnswerError);
    expect(sessionsFor(request.checkoutId)).toHaveLength(1);
    // Xendit has no lookup by reference_id: the port's caller makes a fresh session, the lost one unpayable by anyone.
    expect(await xendit.retrieveCheckoutSession(request, context())).toBeNull();
    const fresh = await xendit.createCheckoutSession(request, context());
    expect(sessionsFor(request.checkoutId).map((session) => session["payment_session_id"])).toContain(fresh.providerReference);
  });

  it("answers a create that timed out with ProviderNoAnswerError", async () => {
    const xendit = provider({ responseTimeoutMs: 300 });
    simulator.injectFault({ method: "POST", path: "/v3/payment_requests", status: "timeout" });
    await expect(xendit.createRedirectPaymentIntent(redirectRequest("gcash"), context())).rejects.toBeInstanceOf(ProviderNoAnswerError);
  });

  it("answers an unexplained 5xx to a create with ProviderNoAnswerError, and CHANNEL_UNAVAILABLE with 'nothing made'", async () => {
    const xendit = provider();
    simulator.injectFault({ method: "POST", path: "/v3/payment_requests", status: 500 });
    await expect(xendit.createQrPh({ paymentIntentId: id("pi"), referenceId: "o", amount: php(100_00), description: "o" }, context())).rejects.toBeInstanceOf(
      ProviderNoAnswerError,
    );

    const request = redirectRequest("gcash");
    simulator.injectFault({ method: "POST", path: "/v3/payment_requests", status: 503, code: "CHANNEL_UNAVAILABLE" });
    const error = await thrownBy(() => xendit.createRedirectPaymentIntent(request, context()));
    expect(error).not.toBeInstanceOf(ProviderNoAnswerError);
    expect((error as AppError).code).toBe("PROVIDER_UNAVAILABLE");
    expect(simulator.objects("payment_request").filter((made) => made["reference_id"] === request.paymentIntentId)).toHaveLength(0);
  });

  it("answers a refused key with PROVIDER_UNAVAILABLE naming only its last four characters", async () => {
    const secretKey = "xnd_public_development_abcdef123456";
    const xendit = provider({ secretKey });
    const error = await thrownBy(() => xendit.createCheckoutSession(checkoutRequest(), context()));
    expect((error as AppError).code).toBe("PROVIDER_UNAVAILABLE");
    expect((error as Error).message).toContain("…3456");
    expect(JSON.stringify({ message: (error as Error).message, details: (error as AppError).details })).not.toContain(secretKey);
  });

  it("refuses what it does not serve yet with PAYMENT_METHOD_NOT_OFFERED, never a silent success", async () => {
    const xendit = provider();
    const confirm = await thrownBy(() => xendit.confirmPaymentIntent({ paymentIntentId: "pi_1", referenceId: "r", amount: php(100_00) }, context()));
    expect((confirm as AppError).code).toBe("PAYMENT_METHOD_NOT_OFFERED");
    const banking = await thrownBy(() => xendit.createRedirectPaymentIntent(redirectRequest("online_banking"), context()));
    expect((banking as AppError).code).toBe("PAYMENT_METHOD_NOT_OFFERED");
  });

  it("checks amounts against each channel's published limits", () => {
    const xendit = provider();
    expect(() => xendit.checkAmount?.({ flow: "payment_intent", amount: php(50_000_00), paymentMethodType: "QRPH" })).not.toThrow();
    expect(() => xendit.checkAmount?.({ flow: "payment_intent", amount: php(50_000_01), paymentMethodType: "qrph" })).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    expect(() => xendit.checkAmount?.({ flow: "payment_intent", amount: php(99), paymentMethodType: "gcash" })).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    expect(() => xendit.checkAmount?.({ flow: "checkout", amount: php(100_000_00) })).not.toThrow();
    expect(() => xendit.checkAmount?.({ flow: "checkout", amount: php(100_000_01) })).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    // A hosted payment (an invoice) offers the channels that take its amount: at least one must.
    expect(() => xendit.checkAmount?.({ flow: "hosted_payment", amount: php(1_00) })).not.toThrow();
    expect(() => xendit.checkAmount?.({ flow: "hosted_payment", amount: php(100_000_00) })).not.toThrow();
    expect(() => xendit.checkAmount?.({ flow: "hosted_payment", amount: php(99) })).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    expect(() => xendit.checkAmount?.({ flow: "hosted_payment", amount: php(100_000_01) })).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    expect(() => provider({ channels: ["QRPH"] }).checkAmount?.({ flow: "hosted_payment", amount: php(50_000_01) })).toThrow(
      expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }),
    );
  });
});

/** The QR string the simulator keeps for a request, as Xendit's API shows it. */
function xenditQrString(paymentRequestId: string): string | undefined {
  const actions = simulator.find(paymentRequestId)?.["actions"] as Array<{ descriptor: string; value: string }> | undefined;
  return actions?.find((action) => action.descriptor === "QR_STRING")?.value;
}
