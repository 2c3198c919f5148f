import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, invoiceBody, paidRequest, paymentRequestBody, sessionBody, type ApiClient } from "./test-support/api-client.js";
import { startCallbackReceiver, type CallbackReceiver } from "./test-support/callback-receiver.js";

let sim: XenditSimulator;
let api: ApiClient;
let receiver: CallbackReceiver;
beforeEach(async () => {
  sim = await startXenditSimulator({ callbackRetryDelaysMs: [20, 20], settings: { refundSettlementMs: null } });
  api = apiClient(sim.url);
  receiver = await startCallbackReceiver();
  sim.setCallbacks({ urls: [receiver.url], verificationToken: "token-of-the-account" });
});
afterEach(async () => {
  await sim.close();
  await receiver.close();
});

const poll = { timeout: 5_000 };
const newRequest = () => api.create("/v3/payment_requests", paymentRequestBody());

describe("callbacks", () => {
  it("sends payment.capture in the v3 envelope with x-callback-token", async () => {
    const id = await paidRequest(api);
    await expect.poll(() => receiver.received.length, poll).toBe(1);
    const [callback] = receiver.received;
    expect(callback!.headers["x-callback-token"]).toBe("token-of-the-account");
    expect(callback!.headers["content-type"]).toBe("application/json");
    expect(callback!.json).toEqual({
      event: "payment.capture",
      business_id: expect.any(String),
      created: expect.any(String),
      data: expect.objectContaining({ payment_request_id: id, status: "SUCCEEDED", payment_id: expect.stringMatching(/^py-/) }),
    });
  });

  it("sends payment.failure, payment_request.expiry, payment_session.completed|expired and refund.succeeded|failed", async () => {
    sim.failPaymentRequest((await newRequest()).payment_request_id);
    sim.expirePaymentRequest((await newRequest()).payment_request_id);
    sim.paySession((await api.create("/sessions", sessionBody())).payment_session_id);
    sim.expireSession((await api.create("/sessions", sessionBody())).payment_session_id);
    const paid = await paidRequest(api, 100);
    const first = await api.post("/refunds", { payment_request_id: paid, reason: "OTHERS", amount: 10 });
    sim.settleRefund(first.body.id, "SUCCEEDED");
    const second = await api.post("/refunds", { payment_request_id: paid, reason: "OTHERS", amount: 10 });
    sim.settleRefund(second.body.id, "FAILED");
    const expected = [
      "payment.failure",
      "payment_request.expiry",
      "payment.capture",
      "payment_session.completed",
      "payment_session.expired",
      "payment.capture",
      "refund.succeeded",
      "refund.failed",
    ];
    expect(sim.events().map((e) => e.event)).toEqual(expected);
    // Order is not guaranteed over the wire [O]: compare as sets.
    await expect.poll(() => [...receiver.events()].sort(), poll).toEqual([...expected].sort());
    const refundFailed = receiver.received.find((r) => r.json.event === "refund.failed");
    expect(refundFailed!.json.data).toMatchObject({ id: second.body.id, status: "FAILED" });
  });

  it("sends an invoice's paid and expired callbacks as the flat invoice, no event wrapper, with x-callback-token", async () => {
    const paid = await api.create("/v2/invoices", invoiceBody({ external_id: "link_paid" }));
    sim.payInvoice(paid.id, "GCASH");
    const expired = await api.create("/v2/invoices", invoiceBody({ external_id: "link_expired" }));
    await api.post(`/invoices/${expired.id}/expire!`);
    expect(sim.events().map((e) => e.event)).toEqual(["invoice.paid", "invoice.expired"]);
    await expect.poll(() => receiver.received.length, poll).toBe(2);
    const byId = (id: string) => receiver.received.find((r) => r.json.id === id)!;
    expect(byId(paid.id).headers["x-callback-token"]).toBe("token-of-the-account");
    expect(byId(paid.id).json).toEqual((await api.get(`/v2/invoices/${paid.id}`)).body);
    expect(byId(paid.id).json).toMatchObject({ external_id: "link_paid", status: "PAID", paid_amount: 499.99, payment_channel: "GCASH", payment_id: expect.any(String) });
    expect(byId(paid.id).json.event).toBeUndefined();
    expect(byId(expired.id).json).toMatchObject({ external_id: "link_expired", status: "EXPIRED" });
  });

  it("sends invoice callbacks to invoiceUrls when the account has them, and v3 callbacks to urls", async () => {
    const invoices = await startCallbackReceiver();
    try {
      sim.setCallbacks({ urls: [receiver.url], invoiceUrls: [invoices.url], verificationToken: "tok" });
      const invoice = await api.create("/v2/invoices", invoiceBody());
      sim.payInvoice(invoice.id);
      await paidRequest(api);
      await expect.poll(() => [invoices.received.length, receiver.received.length], poll).toEqual([1, 1]);
      expect(invoices.received[0]!.json).toMatchObject({ id: invoice.id, status: "PAID" });
      expect(invoices.received[0]!.headers["x-callback-token"]).toBe("tok");
      expect(receiver.received[0]!.json.event).toBe("payment.capture");
    } finally {
      await invoices.close();
    }
  });

  it("retries a non-2xx answer on the schedule until one is 2xx", async () => {
    receiver.respondWith(500, 503, 200);
    await paidRequest(api);
    await expect.poll(() => sim.deliveries().map((d) => [d.attempt, d.status]), poll).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(receiver.received.map((r) => r.json)).toEqual(Array(3).fill(receiver.received[0]!.json));
  });

  it("gives up after the last retry of the schedule", async () => {
    receiver.respondWith(500);
    sim.setCallbackRetryDelays([10]);
    await paidRequest(api);
    await expect.poll(() => sim.deliveries().map((d) => d.attempt), poll).toEqual([1, 2]);
  });

  it("goes to each account's own URL when it has one, with its own token", async () => {
    const other = await startCallbackReceiver();
    try {
      const mine = apiClient(sim.url);
      sim.setCallbacks({ urls: [other.url], verificationToken: "mine" }, mine.key);
      await paidRequest(mine);
      await paidRequest(api);
      await expect.poll(() => other.received.length + receiver.received.length, poll).toBe(2);
      expect(other.received[0]!.headers["x-callback-token"]).toBe("mine");
      expect(receiver.received[0]!.headers["x-callback-token"]).toBe("token-of-the-account");
    } finally {
      await other.close();
    }
  });
});

describe("callback delivery modes", () => {
  it("drop: the event is made but never sent", async () => {
    sim.setCallbackDelivery({ mode: "drop" });
    await paidRequest(api);
    sim.setCallbackDelivery({ mode: "deliver" });
    sim.expirePaymentRequest((await newRequest()).payment_request_id);
    await expect.poll(() => receiver.events(), poll).toEqual(["payment_request.expiry"]);
    expect(sim.events().map((e) => e.event)).toEqual(["payment.capture", "payment_request.expiry"]);
  });

  it("duplicate: the same body arrives twice", async () => {
    sim.setCallbackDelivery({ mode: "duplicate" });
    await paidRequest(api);
    await expect.poll(() => receiver.received.length, poll).toBe(2);
    expect(receiver.received[0]!.json).toEqual(receiver.received[1]!.json);
  });

  it("delay: held back while a later event in deliver mode arrives first", { timeout: 15_000 }, async () => {
    sim.setCallbackDelivery({ mode: "delay", delayMs: 2_000 });
    await paidRequest(api);
    sim.setCallbackDelivery({ mode: "deliver" });
    sim.expirePaymentRequest((await newRequest()).payment_request_id);
    await expect.poll(() => receiver.events(), { timeout: 10_000 }).toEqual(["payment_request.expiry", "payment.capture"]);
  });

  it("resendEvent sends an event again", async () => {
    await paidRequest(api);
    await expect.poll(() => receiver.received.length, poll).toBe(1);
    sim.resendEvent(sim.events()[0]!.id);
    await expect.poll(() => receiver.received.length, poll).toBe(2);
  });

  it("refuses a mode it does not know", () => {
    expect(() => sim.setCallbackDelivery({ mode: "reorder" as "drop" })).toThrow(/mode must be one of/);
  });
});
