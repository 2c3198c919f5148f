import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, paymentRequestBody, sessionBody, type ApiClient } from "./test-support/api-client.js";
import { startCallbackReceiver, type CallbackReceiver } from "./test-support/callback-receiver.js";

let sim: XenditSimulator;
let api: ApiClient;
let receiver: CallbackReceiver;
beforeEach(async () => {
  sim = await startXenditSimulator({ settings: { refundSettlementMs: null } });
  api = apiClient(sim.url);
  receiver = await startCallbackReceiver();
});
afterEach(async () => {
  await sim.close();
  await receiver.close();
});

async function control(method: string, path: string, body?: unknown) {
  const response = await fetch(`${sim.url}/__simulator/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("controls over HTTP", () => {
  it("PUT callbacks sets the URLs and token that callbacks then use", async () => {
    expect((await control("PUT", "callbacks", { urls: [receiver.url], verificationToken: "tok" })).status).toBe(200);
    const request = await api.create("/v3/payment_requests", paymentRequestBody());
    expect((await control("POST", `payment_requests/${request.payment_request_id}/pay`)).body.data.paymentId).toMatch(/^py-/);
    await expect.poll(() => receiver.received.map((r) => r.headers["x-callback-token"]), { timeout: 5_000 }).toEqual(["tok"]);
    expect((await control("GET", "events")).body.data.map((e: any) => e.event)).toEqual(["payment.capture"]);
    await expect.poll(async () => (await control("GET", "deliveries")).body.data.length, { timeout: 5_000 }).toBe(1);
  });

  it("refuses callback settings without URLs or a token", async () => {
    expect((await control("PUT", "callbacks", { urls: ["not a url"], verificationToken: "tok" })).status).toBe(400);
    expect((await control("PUT", "callbacks", { urls: [receiver.url] })).status).toBe(400);
  });

  it("fails, expires and pays through the routes, in Xendit's error shape when they cannot", async () => {
    const request = await api.create("/v3/payment_requests", paymentRequestBody());
    const failed = await control("POST", `payment_requests/${request.payment_request_id}/fail`, { failure_code: "CHANNEL_UNAVAILABLE" });
    expect(sim.find(failed.body.data.paymentId)).toMatchObject({ failure_code: "CHANNEL_UNAVAILABLE" });
    const again = await control("POST", `payment_requests/${request.payment_request_id}/expire`);
    expect(again).toMatchObject({ status: 400, body: { error_code: "INACTIVE_PAYMENT_REQUEST" } });
    const session = await api.create("/sessions", sessionBody());
    expect((await control("POST", `sessions/${session.payment_session_id}/pay`, { channel_code: "GCASH" })).body.data.paymentRequestId).toMatch(/^pr-/);
    expect((await control("GET", `objects/${session.payment_session_id}`)).body.data.status).toBe("COMPLETED");
    expect((await control("GET", "objects/pr-none")).status).toBe(404);
  });

  it("settles a refund by route", async () => {
    const request = await api.create("/v3/payment_requests", paymentRequestBody());
    sim.payPaymentRequest(request.payment_request_id);
    const refund = await api.create("/refunds", { payment_request_id: request.payment_request_id, reason: "DUPLICATE" });
    const settled = await control("POST", `refunds/${refund.id}/settle`, { status: "SUCCEEDED" });
    expect(settled.body.data.status).toBe("SUCCEEDED");
    expect((await control("POST", `refunds/${refund.id}/settle`, { status: "DONE" })).status).toBe(400);
  });

  it("arms, lists and clears faults; sets the delivery mode, retries, rate limit and settings", async () => {
    expect((await control("POST", "faults", { path: "/v3/", status: 503, times: 2 })).body.data).toEqual([{ path: "/v3/", status: 503, times: 2 }]);
    expect((await api.post("/v3/payment_requests", paymentRequestBody())).status).toBe(503);
    expect((await control("GET", "faults")).body.data[0].times).toBe(1);
    expect((await control("DELETE", "faults")).body.data).toEqual([]);
    expect((await control("POST", "callback-delivery", { mode: "drop" })).body).toEqual({ mode: "drop", delayMs: 1000 });
    expect((await control("POST", "callback-retries", { retryDelaysMs: [5, 5] })).body).toEqual({ retryDelaysMs: [5, 5] });
    expect((await control("POST", "rate-limit", { test: 100 })).body).toMatchObject({ test: 100, live: 600, windowMs: 60_000 });
    expect((await control("POST", "settings", { idempotentPaymentRequests: true })).body).toEqual({ idempotentPaymentRequests: true, refundSettlementMs: null, paymentRequestExpiryMs: null });
    expect((await control("POST", "settings", { idempotentPaymentRequests: "yes" })).status).toBe(400);
    expect((await control("GET", "nothing-here")).status).toBe(404);
  });
});
