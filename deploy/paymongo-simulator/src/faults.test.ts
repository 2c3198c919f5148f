import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator } from "./index.js";
import { apiClient, type ApiClient } from "./test-support/api-client.js";

let sim: PaymongoSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startPaymongoSimulator();
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

const customer = { first_name: "Maria", last_name: "Santos", email: "maria@example.ph", default_device: "email" };
const listPayments = async () => (await api.get("/v1/payments")).status;
const authorization = () => `Basic ${Buffer.from(`${api.key}:`).toString("base64")}`;

describe("injectFault", () => {
  it.each([500, 503])("answers %i in PayMongo's error shape, and nothing is made", async (status) => {
    sim.injectFault({ method: "POST", path: "/v1/customers", status });
    const answer = await api.post("/v1/customers", customer);
    expect(answer.status).toBe(status);
    expect(answer.body.errors[0]).toMatchObject({ code: "internal_server_error" });
    expect(sim.events()).toEqual([]);
    // Used up: the next one goes through.
    expect((await api.post("/v1/customers", customer)).status).toBe(200);
  });

  it("answers 429 with PayMongo's plain-text body, and nothing is made", async () => {
    sim.injectFault({ method: "POST", path: "/v1/customers", status: 429 });
    const response = await fetch(`${sim.url}/v1/customers`, {
      method: "POST",
      headers: { authorization: authorization(), "content-type": "application/json" },
      body: JSON.stringify({ data: { attributes: customer } }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("Too many requests, please try again later.");
    expect(sim.objects("customer")).toEqual([]);
    expect((await api.post("/v1/customers", customer)).status).toBe(200);
    expect(sim.objects("customer")).toHaveLength(1);
  });

  it("applies to the next `times` matching requests only, by method and path prefix", async () => {
    sim.injectFault({ method: "GET", path: "/v1/payment", status: 502, times: 2 });
    expect((await api.post("/v1/payment_intents", { amount: 2000, currency: "PHP", payment_method_allowed: ["gcash"] })).status).toBe(200);
    expect((await api.get("/v1/webhooks")).status).toBe(200);
    expect(await listPayments()).toBe(502);
    expect((await api.get("/v1/payment_intents/pi_x")).status).toBe(502);
    expect(await listPayments()).toBe(200);
  });

  it("timeout: holds the request without an answer", async () => {
    sim.injectFault({ path: "/v1/webhooks", status: "timeout" });
    const held = fetch(`${sim.url}/v1/webhooks`, { headers: { authorization: authorization() }, signal: AbortSignal.timeout(150) });
    await expect(held).rejects.toMatchObject({ name: "TimeoutError" });
    expect((await api.get("/v1/webhooks")).status).toBe(200);
  });

  it("reset: the connection is destroyed", async () => {
    sim.injectFault({ path: "/v1/webhooks", status: "reset" });
    await expect(fetch(`${sim.url}/v1/webhooks`, { headers: { authorization: authorization() } })).rejects.toThrow(TypeError);
    expect((await api.get("/v1/webhooks")).status).toBe(200);
  });

  it("afterProcessing: the create takes effect but its answer is lost", async () => {
    sim.injectFault({ method: "POST", path: "/v1/links", status: 500, afterProcessing: true });
    const lost = await api.post("/v1/links", { amount: 10000, description: "Invoice 9" });
    expect(lost.status).toBe(500);
    const links = (await api.get("/v1/links")).body.data;
    expect(links).toHaveLength(1);
    expect(links[0].attributes.description).toBe("Invoice 9");
  });

  it("afterProcessing with reset: the webhook exists though the connection died", async () => {
    sim.injectFault({ method: "POST", path: "/v1/webhooks", status: "reset", afterProcessing: true });
    await expect(api.post("/v1/webhooks", { url: "https://example.ph/h", events: ["payment.paid"] })).rejects.toThrow(TypeError);
    expect((await api.get("/v1/webhooks")).body.data).toHaveLength(1);
  });

  it("clearFaults disarms what is left", async () => {
    sim.injectFault({ status: 500, times: 5 });
    sim.clearFaults();
    expect((await api.get("/v1/webhooks")).status).toBe(200);
  });

  it("refuses a fault it cannot play", () => {
    expect(() => sim.injectFault({ status: 200 })).toThrow();
    expect(() => sim.injectFault({ status: 500, times: 0 })).toThrow();
  });
});
