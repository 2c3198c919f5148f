import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, sessionBody, type ApiClient } from "./test-support/api-client.js";

let sim: XenditSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startXenditSimulator();
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

describe("POST /sessions", () => {
  it("makes an ACTIVE PAYMENT_LINK session with a ps- id of 27 characters, a simulator page and a 30 min default expiry", async () => {
    const answer = await api.post("/sessions", sessionBody());
    expect(answer.status).toBe(201);
    const session = answer.body;
    expect(session).toMatchObject({ status: "ACTIVE", mode: "PAYMENT_LINK", amount: 250, payment_request_id: null, payment_id: null });
    expect(session.payment_session_id).toMatch(/^ps-[0-9a-f]{24}$/);
    expect(session.payment_link_url).toBe(`${sim.url}/checkout/${session.payment_session_id}`);
    const lifetime = Date.parse(session.expires_at) - Date.parse(session.created);
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000);
    const page = await (await fetch(session.payment_link_url)).text();
    expect(page).toContain("Pay with GCASH");
    expect(page).toContain("Fail an attempt");
    expect((await api.get(`/sessions/${session.payment_session_id}`)).body).toEqual(session);
  });

  it.each([
    ["reference_id", { reference_id: "r".repeat(65) }],
    ["session_type PAY", { session_type: "SAVE" }],
    ["mode PAYMENT_LINK", { mode: "COMPONENTS" }],
    ["a positive amount", { amount: 0 }],
    ["an amount of at most 2 decimals", { amount: 1.234 }],
    ["known channels", { allowed_payment_channels: ["OVO"] }],
    ["a future expires_at", { expires_at: "2020-01-01T00:00:00Z" }],
  ])("refuses a session without %s", async (_, overrides) => {
    const answer = await api.post("/sessions", sessionBody(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.error_code).toBe("API_VALIDATION_ERROR");
  });
});

describe("paying a session", () => {
  it("COMPLETES it with the payment request and payment made on the channel chosen", async () => {
    const session = await api.create("/sessions", sessionBody({ allowed_payment_channels: ["PAYMAYA", "QRPH"] }));
    const { paymentRequestId, paymentId } = sim.paySession(session.payment_session_id, "QRPH");
    const after = (await api.get(`/sessions/${session.payment_session_id}`)).body;
    expect(after).toMatchObject({ status: "COMPLETED", payment_request_id: paymentRequestId, payment_id: paymentId });
    expect((await api.get(`/v3/payment_requests/${paymentRequestId}`)).body).toMatchObject({ status: "SUCCEEDED", channel_code: "QRPH", request_amount: 250 });
    expect((await api.get(`/v3/payments/${paymentId}`)).body.status).toBe("SUCCEEDED");
    expect(() => sim.paySession(session.payment_session_id)).toThrow(/COMPLETED/);
  });

  it("the page's pay button completes it and sends the payer to success_return_url", async () => {
    const session = await api.create("/sessions", sessionBody());
    const response = await fetch(`${session.payment_link_url}/pay`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "channel_code=GRABPAY",
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("https://shop.example.ph/ok");
    expect((await api.get(`/sessions/${session.payment_session_id}`)).body.status).toBe("COMPLETED");
  });

  it("the page's fail button records a failed attempt and shows the page again", async () => {
    const session = await api.create("/sessions", sessionBody());
    const response = await fetch(`${session.payment_link_url}/fail`, { method: "POST", redirect: "manual" });
    expect(response.headers.get("location")).toBe(`/checkout/${session.payment_session_id}`);
    expect(sim.objects("payment")).toMatchObject([{ status: "FAILED", reference_id: "checkout-7" }]);
    expect((await api.get(`/sessions/${session.payment_session_id}`)).body.status).toBe("ACTIVE");
  });

  it("a failed attempt leaves the session ACTIVE, so the payer can try again", async () => {
    const session = await api.create("/sessions", sessionBody());
    const { paymentId } = sim.failSessionAttempt(session.payment_session_id, "GCASH", "USER_DECLINED_PAYMENT");
    expect((await api.get(`/v3/payments/${paymentId}`)).body).toMatchObject({ status: "FAILED", failure_code: "USER_DECLINED_PAYMENT" });
    expect((await api.get(`/sessions/${session.payment_session_id}`)).body.status).toBe("ACTIVE");
    expect(sim.paySession(session.payment_session_id).paymentId).toMatch(/^py-/);
  });

  it("refuses a channel the session does not allow, or one whose limit its amount passes", async () => {
    const session = await api.create("/sessions", sessionBody({ amount: 60000, allowed_payment_channels: ["GCASH", "QRPH"] }));
    expect(() => sim.paySession(session.payment_session_id, "PAYMAYA")).toThrow(/takes GCASH, QRPH/);
    expect(() => sim.paySession(session.payment_session_id, "QRPH")).toThrow(/between 1 and 50000/);
  });

  it("an EXPIRED session can no longer be paid", async () => {
    const session = await api.create("/sessions", sessionBody());
    sim.expireSession(session.payment_session_id);
    expect((await api.get(`/sessions/${session.payment_session_id}`)).body.status).toBe("EXPIRED");
    expect(() => sim.paySession(session.payment_session_id)).toThrow(/EXPIRED/);
  });

  it("expires by itself at expires_at", async () => {
    const session = await api.create("/sessions", sessionBody({ expires_at: new Date(Date.now() + 300).toISOString() }));
    await expect.poll(async () => (await api.get(`/sessions/${session.payment_session_id}`)).body.status, { timeout: 5_000 }).toBe("EXPIRED");
  });
});
