import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, paidRequest, paymentRequestBody, type ApiClient } from "./test-support/api-client.js";

let sim: XenditSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startXenditSimulator({ settings: { refundSettlementMs: null } });
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

const createRequest = () => api.post("/v3/payment_requests", paymentRequestBody());
const requestsMade = () => sim.objects("payment_request").length;

describe("injectFault", () => {
  it.each([500, 503])("answers %i SERVER_ERROR before anything is made, then is used up", async (status) => {
    sim.injectFault({ method: "POST", path: "/v3/payment_requests", status });
    const answer = await createRequest();
    expect(answer).toMatchObject({ status, body: { error_code: "SERVER_ERROR", message: expect.any(String) } });
    expect(requestsMade()).toBe(0);
    expect((await createRequest()).status).toBe(201);
    expect(requestsMade()).toBe(1);
  });

  it("answers with the error_code given, e.g. 503 CHANNEL_UNAVAILABLE", async () => {
    sim.injectFault({ path: "/v3/payment_requests", status: 503, code: "CHANNEL_UNAVAILABLE" });
    expect((await createRequest()).body.error_code).toBe("CHANNEL_UNAVAILABLE");
  });

  it("applies to the next `times` requests matching method and path prefix only", async () => {
    sim.injectFault({ method: "GET", path: "/refunds/", status: 502, times: 2 });
    expect((await createRequest()).status).toBe(201);
    expect((await api.get("/refunds/rfd-1")).status).toBe(502);
    expect((await api.get("/refunds/rfd-2")).status).toBe(502);
    expect((await api.get("/refunds/rfd-3")).status).toBe(404);
  });

  it("afterProcessing: the refund is made but its answer is lost; the same idempotency-key then replays it", async () => {
    const id = await paidRequest(api, 100);
    sim.injectFault({ method: "POST", path: "/refunds", status: 500, afterProcessing: true });
    const key = { "idempotency-key": "lost-1" };
    const lost = await api.post("/refunds", { payment_request_id: id, reason: "OTHERS" }, key);
    expect(lost.status).toBe(500);
    const retried = await api.post("/refunds", { payment_request_id: id, reason: "OTHERS" }, key);
    expect(retried).toMatchObject({ status: 200, body: { status: "PENDING", amount: 100 } });
    expect(sim.find(retried.body.id)).toMatchObject({ payment_request_id: id });
  });

  it("afterProcessing with reset: the payment request exists though the connection died", async () => {
    sim.injectFault({ method: "POST", path: "/v3/payment_requests", status: "reset", afterProcessing: true });
    await expect(createRequest()).rejects.toThrow(TypeError);
    expect(sim.objects("payment_request")).toMatchObject([{ reference_id: "order-42", status: "REQUIRES_ACTION" }]);
  });

  it("reset before processing: the connection is destroyed and nothing is made", async () => {
    sim.injectFault({ path: "/v3/payment_requests", status: "reset" });
    await expect(createRequest()).rejects.toThrow(TypeError);
    expect(requestsMade()).toBe(0);
    expect((await createRequest()).status).toBe(201);
  });

  it("timeout: holds the request without an answer", async () => {
    sim.injectFault({ path: "/refunds/", status: "timeout" });
    const held = fetch(`${sim.url}/refunds/rfd-1`, { headers: { authorization: `Basic ${Buffer.from(`${api.key}:`).toString("base64")}` }, signal: AbortSignal.timeout(150) });
    await expect(held).rejects.toMatchObject({ name: "TimeoutError" });
    expect((await api.get("/refunds/rfd-1")).status).toBe(404);
  });

  it("delayMs alone: the request is answered normally, only late", async () => {
    sim.injectFault({ path: "/v3/payment_requests", delayMs: 300 });
    const slow = createRequest();
    expect((await api.get("/refunds/rfd-1")).status).toBe(404);
    expect(requestsMade()).toBe(0);
    expect((await slow).status).toBe(201);
    expect(requestsMade()).toBe(1);
  });

  it("clearFaults disarms what is left, and a fault it cannot play is refused", async () => {
    sim.injectFault({ status: 500, times: 5 });
    sim.clearFaults();
    expect((await createRequest()).status).toBe(201);
    expect(() => sim.injectFault({ status: 200 })).toThrow();
    expect(() => sim.injectFault({ status: 500, times: 0 })).toThrow();
    expect(() => sim.injectFault({})).toThrow();
  });
});
