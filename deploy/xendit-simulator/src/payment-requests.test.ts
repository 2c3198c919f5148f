import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { crc16 } from "./qr-string.js";
import { apiClient, newSecretKey, paymentRequestBody, type ApiClient } from "./test-support/api-client.js";

let sim: XenditSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startXenditSimulator();
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

const create = (overrides: Record<string, unknown> = {}) => api.post("/v3/payment_requests", paymentRequestBody(overrides));

describe("POST /v3/payment_requests", () => {
  it.each(["GCASH", "PAYMAYA", "GRABPAY", "SHOPEEPAY"])("answers 201 REQUIRES_ACTION with a redirect to a simulator page for %s", async (channel) => {
    const answer = await create({ channel_code: channel, metadata: { order: "42" } });
    expect(answer.status).toBe(201);
    const request = answer.body;
    expect(request).toMatchObject({
      payment_request_id: expect.stringMatching(/^pr-/),
      business_id: expect.any(String),
      reference_id: "order-42",
      type: "PAY",
      country: "PH",
      currency: "PHP",
      request_amount: 150.5,
      capture_method: "AUTOMATIC",
      channel_code: channel,
      status: "REQUIRES_ACTION",
      latest_payment_id: null,
      metadata: { order: "42" },
    });
    expect(new Date(request.created).toISOString()).toBe(request.created);
    expect(request.actions).toEqual([{ type: "REDIRECT_CUSTOMER", descriptor: "WEB_URL", value: `${sim.url}/pay/${request.payment_request_id}` }]);
    const page = await fetch(request.actions[0].value);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Pay<\/button>[\s\S]*Fail<\/button>/);
  });

  it("presents an EMVCo QR string with a valid checksum for QRPH", async () => {
    const answer = await create({ channel_code: "QRPH", channel_properties: {}, request_amount: 1234.5 });
    expect(answer.status).toBe(201);
    const [action] = answer.body.actions;
    expect(action).toMatchObject({ type: "PRESENT_TO_CUSTOMER", descriptor: "QR_STRING" });
    const qr: string = action.value;
    expect(qr.startsWith("000201")).toBe(true);
    expect(qr).toContain("5303608");
    expect(qr).toContain("54071234.50");
    expect(qr.slice(-4)).toBe(crc16(qr.slice(0, -4)));
  });

  it.each([
    ["reference_id", { reference_id: undefined }],
    ["type", { type: "PAY_AND_SAVE" }],
    ["country", { country: "ID" }],
    ["currency", { currency: "IDR" }],
    ["request_amount", { request_amount: "150.50" }],
    ["channel_code", { channel_code: "BCA" }],
    ["channel_properties", { channel_properties: undefined }],
    ["a success_return_url", { channel_properties: { failure_return_url: "https://shop.example.ph/fail" } }],
    ["an HTTPS return URL", { channel_properties: { success_return_url: "http://shop.example.ph/ok", failure_return_url: "https://shop.example.ph/fail" } }],
    ["capture_method AUTOMATIC for an e-wallet", { capture_method: "MANUAL" }],
    ["metadata within its limits", { metadata: { ["k".repeat(41)]: "v" } }],
  ])("refuses a request without %s with 400 API_VALIDATION_ERROR", async (_, overrides) => {
    const answer = await create(overrides);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error_code: "API_VALIDATION_ERROR", message: expect.any(String) });
  });

  it.each([
    ["GCASH", 0.99, 400],
    ["GCASH", 1, 201],
    ["GCASH", 100000, 201],
    ["GCASH", 100000.01, 400],
    ["QRPH", 50000, 201],
    ["QRPH", 50000.01, 400],
    ["PAYMAYA", 10.005, 400],
    ["GRABPAY", 10.05, 201],
  ])("%s ₱%d answers %i (channel limits, at most 2 decimals)", async (channel, amount, status) => {
    const answer = await create({ channel_code: channel, request_amount: amount });
    expect(answer.status).toBe(status);
    if (status === 400) expect(answer.body.error_code).toBe("API_VALIDATION_ERROR");
  });
});

describe("payment request lifecycle", () => {
  it("simulate (test key): answers PENDING, the request SUCCEEDS and a payment py-… is made", async () => {
    const request = (await create()).body;
    const simulated = await api.post(`/v3/payment_requests/${request.payment_request_id}/simulate`, { amount: 150.5 });
    expect(simulated).toMatchObject({ status: 200, body: { status: "PENDING", message: expect.any(String) } });
    const after = (await api.get(`/v3/payment_requests/${request.payment_request_id}`)).body;
    expect(after.status).toBe("SUCCEEDED");
    expect(after.latest_payment_id).toMatch(/^py-/);
    const payment = await api.get(`/v3/payments/${after.latest_payment_id}`);
    expect(payment.status).toBe(200);
    expect(payment.body).toMatchObject({
      payment_id: after.latest_payment_id,
      payment_request_id: request.payment_request_id,
      status: "SUCCEEDED",
      request_amount: 150.5,
      channel_code: "GCASH",
      captures: [{ capture_id: expect.stringMatching(/^cap-/), capture_amount: 150.5 }],
      payment_details: { payer_name: expect.any(String) },
    });
  });

  it("simulate refuses a live key, another amount and a request no longer open", async () => {
    const live = apiClient(sim.url, newSecretKey("live"));
    const liveRequest = await live.create("/v3/payment_requests", paymentRequestBody());
    expect((await live.post(`/v3/payment_requests/${liveRequest.payment_request_id}/simulate`, {})).status).toBe(403);

    const id = (await create()).body.payment_request_id;
    const wrong = await api.post(`/v3/payment_requests/${id}/simulate`, { amount: 10 });
    expect(wrong.body.error_code).toBe("API_VALIDATION_ERROR");
    expect((await api.post(`/v3/payment_requests/${id}/simulate`, {})).status).toBe(200);
    const again = await api.post(`/v3/payment_requests/${id}/simulate`, {});
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe("INACTIVE_PAYMENT_REQUEST");
  });

  it("cancel: an open request becomes CANCELED and can be neither paid nor canceled again", async () => {
    const id = (await create()).body.payment_request_id;
    const canceled = await api.post(`/v3/payment_requests/${id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("CANCELED");
    expect((await api.post(`/v3/payment_requests/${id}/cancel`)).body.error_code).toBe("INACTIVE_PAYMENT_REQUEST");
    expect((await api.post(`/v3/payment_requests/${id}/simulate`, {})).body.error_code).toBe("INACTIVE_PAYMENT_REQUEST");
  });

  it("a failed attempt leaves the request FAILED with the failure code on it and its payment", async () => {
    const id = (await create()).body.payment_request_id;
    const { paymentId } = sim.failPaymentRequest(id, "INSUFFICIENT_BALANCE");
    expect((await api.get(`/v3/payment_requests/${id}`)).body).toMatchObject({ status: "FAILED", failure_code: "INSUFFICIENT_BALANCE" });
    expect((await api.get(`/v3/payments/${paymentId}`)).body).toMatchObject({ status: "FAILED", failure_code: "INSUFFICIENT_BALANCE", captures: [] });
  });

  it("expiry leaves the request EXPIRED with PAYMENT_REQUEST_EXPIRED", async () => {
    const id = (await create()).body.payment_request_id;
    sim.expirePaymentRequest(id);
    expect((await api.get(`/v3/payment_requests/${id}`)).body).toMatchObject({ status: "EXPIRED", failure_code: "PAYMENT_REQUEST_EXPIRED" });
  });

  it("expires by itself once its time is up", async () => {
    sim.setSettings({ paymentRequestExpiryMs: 200 });
    const id = (await create({ channel_code: "QRPH", channel_properties: {} })).body.payment_request_id;
    await expect.poll(async () => (await api.get(`/v3/payment_requests/${id}`)).body.status, { timeout: 5_000 }).toBe("EXPIRED");
  });

  it("the redirect page's Fail button fails the request and sends the payer to failure_return_url", async () => {
    const request = (await create()).body;
    const response = await fetch(`${request.actions[0].value}/fail`, { method: "POST", redirect: "manual" });
    expect(response.headers.get("location")).toBe("https://shop.example.ph/fail");
    expect((await api.get(`/v3/payment_requests/${request.payment_request_id}`)).body).toMatchObject({ status: "FAILED", failure_code: "USER_DID_NOT_AUTHORIZE" });
  });

  it("the redirect page's Pay button pays the request and sends the payer to success_return_url", async () => {
    const request = (await create()).body;
    const response = await fetch(`${request.actions[0].value}/pay`, { method: "POST", redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://shop.example.ph/ok");
    expect((await api.get(`/v3/payment_requests/${request.payment_request_id}`)).body.status).toBe("SUCCEEDED");
  });
});

describe("idempotency-key on POST /v3/payment_requests", () => {
  const withKey = (body: Record<string, unknown>) => api.post("/v3/payment_requests", paymentRequestBody(body), { "idempotency-key": "key-1" });

  it("is ignored by default (UNCONF): the same key makes a second request", async () => {
    const first = await withKey({});
    const second = await withKey({});
    expect(second.status).toBe(201);
    expect(second.body.payment_request_id).not.toBe(first.body.payment_request_id);
  });

  it("is honoured once the control turns it on: same body replays, another body is 409", async () => {
    sim.setSettings({ idempotentPaymentRequests: true });
    const first = await withKey({});
    const replay = await withKey({});
    expect(replay).toMatchObject({ status: 201, body: { payment_request_id: first.body.payment_request_id } });
    const other = await withKey({ request_amount: 99 });
    expect(other.status).toBe(409);
    expect(other.body.error_code).toBe("DUPLICATE_ERROR");
  });
});
