import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator } from "./index.js";
import { apiClient } from "./test-support/api-client.js";

let sim: PaymongoSimulator;
beforeEach(async () => {
  sim = await startPaymongoSimulator({ rateLimitPerSecond: 5 });
});
afterEach(async () => {
  await sim.close();
});

describe("rate limit", () => {
  it("answers 429 with PayMongo's plain-text body once a key goes over its requests in a second, and lets it in again later", async () => {
    const api = apiClient(sim.url);
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.get("/v1/webhooks")));
    const limited = answers.filter((answer) => answer.status === 429);
    // Twelve requests cannot all fall in one second and its next: at most ten get through.
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(limited[0]!.body).toBe("Too many requests, please try again later.");
    // Another key has a limit of its own.
    expect((await apiClient(sim.url).get("/v1/webhooks")).status).toBe(200);
    await expect.poll(async () => (await api.get("/v1/webhooks")).status, { timeout: 5_000, interval: 200 }).toBe(200);
  });

  it("makes nothing for a create it turns away", async () => {
    const api = apiClient(sim.url);
    const creates = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post("/v1/customers", { first_name: "A", last_name: `B${i}`, email: "a@b.ph", default_device: "email" })),
    );
    const made = creates.filter((answer) => answer.status === 200).length;
    expect(made).toBeLessThan(12);
    expect(sim.objects("customer")).toHaveLength(made);
  });
});
