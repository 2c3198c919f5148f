import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startXenditSimulator, type XenditSimulator } from "./index.js";
import { apiClient, newSecretKey, paymentRequestBody } from "./test-support/api-client.js";

let sim: XenditSimulator;
beforeEach(async () => {
  sim = await startXenditSimulator({ rateLimit: { test: 3, live: 5, windowMs: 3_000 } });
});
afterEach(async () => {
  await sim.close();
});

describe("rate limit", () => {
  it("counts each endpoint per account in a sliding window, with the Rate-Limit-* headers, then 429 RATE_LIMIT_EXCEEDED", { timeout: 20_000 }, async () => {
    const api = apiClient(sim.url);
    const first = await api.get("/refunds/rfd-1");
    expect(first.headers.get("rate-limit-limit")).toBe("3");
    expect(first.headers.get("rate-limit-remaining")).toBe("2");
    expect(Number(first.headers.get("rate-limit-reset"))).toBeGreaterThanOrEqual(1);
    await api.get("/refunds/rfd-2");
    expect((await api.get("/refunds/rfd-3")).headers.get("rate-limit-remaining")).toBe("0");
    const limited = await api.get("/refunds/rfd-4");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error_code: "RATE_LIMIT_EXCEEDED", message: expect.any(String) });
    expect(limited.headers.get("rate-limit-remaining")).toBe("0");
    // Another endpoint, and another account, have windows of their own.
    expect((await api.post("/v3/payment_requests", paymentRequestBody())).status).toBe(201);
    expect((await apiClient(sim.url).get("/refunds/rfd-1")).status).toBe(404);
    // Once the oldest request leaves the window, the account is let in again.
    await expect.poll(async () => (await api.get("/refunds/rfd-1")).status, { timeout: 15_000, interval: 200 }).toBe(404);
  });

  it("makes nothing for a create it turns away", async () => {
    const api = apiClient(sim.url);
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post("/v3/payment_requests", paymentRequestBody())));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 429, 429]);
    expect(sim.objects("payment_request")).toHaveLength(3);
  });

  it("gives a live key its own, higher limit, and can be changed by control", async () => {
    const live = apiClient(sim.url, newSecretKey("live"));
    expect((await live.get("/refunds/rfd-1")).headers.get("rate-limit-limit")).toBe("5");
    sim.setRateLimit({ live: 1 });
    expect((await live.get("/refunds/rfd-1")).status).toBe(404);
    expect((await live.get("/refunds/rfd-1")).status).toBe(429);
    expect(() => sim.setRateLimit({ test: 0 })).toThrow();
  });
});
