import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator } from "./index.js";
import { apiClient, checkoutSessionAttributes, newSecretKey } from "./test-support/api-client.js";

let sim: PaymongoSimulator;
beforeEach(async () => {
  sim = await startPaymongoSimulator();
});
afterEach(async () => {
  await sim.close();
});

async function getWith(authorization: string | undefined) {
  const response = await fetch(`${sim.url}/v1/webhooks`, { headers: authorization ? { authorization } : {} });
  return { status: response.status, body: (await response.json()) as { errors: Array<{ code: string; detail: string }> } };
}
const basic = (user: string) => `Basic ${Buffer.from(user).toString("base64")}`;

describe("authentication", () => {
  it.each([
    ["no Authorization header", undefined],
    ["a Bearer token", `Bearer ${newSecretKey()}`],
    ["a public key", basic(`pk_test_${"a".repeat(24)}:`)],
    ["a key with too short a suffix", basic("sk_test_abc123:")],
    ["a key with characters outside base62", basic(`sk_test_${"a".repeat(20)}-x:`)],
  ])("answers 401 authentication_failed for %s", async (_, header) => {
    const answer = await getWith(header);
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0]!.code).toBe("authentication_failed");
    expect(answer.body.errors[0]!.detail).toEqual(expect.any(String));
  });

  it("accepts a secret key as the Basic user name with an empty password", async () => {
    expect((await getWith(basic(`${newSecretKey()}:`))).status).toBe(200);
  });

  it("keeps each key's objects to itself", async () => {
    const mine = apiClient(sim.url);
    const theirs = apiClient(sim.url);
    const customer = await mine.create("/v1/customers", { first_name: "Maria", last_name: "Santos", email: "maria@example.ph", default_device: "email" });
    const stolen = await theirs.get(`/v1/customers/${customer.id}`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.errors[0].code).toBe("resource_not_found");
    expect((await mine.get(`/v1/customers/${customer.id}`)).status).toBe(200);
  });

  it("takes livemode from the key", async () => {
    const test = await apiClient(sim.url, newSecretKey("test")).create("/v1/checkout_sessions", checkoutSessionAttributes());
    const live = await apiClient(sim.url, newSecretKey("live")).create("/v1/checkout_sessions", checkoutSessionAttributes());
    expect(test.attributes.livemode).toBe(false);
    expect(live.attributes.livemode).toBe(true);
  });
});

describe("envelopes", () => {
  it("answers a create with 200 and a JSON:API resource with timestamps in unix seconds", async () => {
    const api = apiClient(sim.url);
    const answer = await api.post("/v1/payment_intents", { amount: 2000, currency: "PHP", payment_method_allowed: ["gcash"] });
    expect(answer.status).toBe(200);
    const { id, type, attributes } = answer.body.data;
    expect(id).toMatch(/^pi_[0-9A-Za-z]{24}$/);
    expect(type).toBe("payment_intent");
    expect(attributes).toMatchObject({ livemode: false, amount: 2000, currency: "PHP", status: "awaiting_payment_method" });
    expect(attributes.created_at).toBe(attributes.updated_at);
    expect(Math.abs(attributes.created_at - Date.now() / 1000)).toBeLessThan(60);
  });

  it("lists as {data: [...], has_more: false}", async () => {
    const api = apiClient(sim.url);
    const hook = await api.create("/v1/webhooks", { url: "https://example.ph/hook", events: ["payment.paid"] });
    expect((await api.get("/v1/webhooks")).body).toEqual({ data: [hook], has_more: false });
  });

  it("lists every validation problem, each naming its attribute", async () => {
    const answer = await apiClient(sim.url).post("/v1/payment_intents", { amount: 1999, currency: "USD" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { code: "parameter_below_minimum", detail: expect.any(String), source: { pointer: "attributes.amount", attribute: "amount" } },
      { code: "parameter_invalid", detail: expect.any(String), source: { pointer: "attributes.currency", attribute: "currency" } },
      { code: "parameter_required", detail: expect.any(String), source: { pointer: "attributes.payment_method_allowed", attribute: "payment_method_allowed" } },
    ]);
  });

  it("refuses a body that is not JSON, or not {data: {attributes}}", async () => {
    const authorization = basic(`${newSecretKey()}:`);
    const notJson = await fetch(`${sim.url}/v1/customers`, { method: "POST", headers: { authorization }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe("parameter_invalid");
    const flat = await fetch(`${sim.url}/v1/customers`, { method: "POST", headers: { authorization }, body: JSON.stringify({ first_name: "A" }) });
    expect(flat.status).toBe(400);
    expect(await flat.json()).toMatchObject({ errors: [{ code: "parameter_required", source: { pointer: "data.attributes" } }] });
  });

  it("answers 404 resource_not_found for unknown ids and unknown routes", async () => {
    const api = apiClient(sim.url);
    for (const path of ["/v1/payment_intents/pi_nope", "/v1/refunds/ref_nope", "/v1/links/link_nope", "/v1/nothing"]) {
      const answer = await api.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.errors[0].code, path).toBe("resource_not_found");
    }
  });
});

describe("customers", () => {
  it("creates and reads a customer, and names the missing fields", async () => {
    const api = apiClient(sim.url);
    const customer = await api.create("/v1/customers", {
      first_name: "Maria",
      last_name: "Santos",
      email: "maria@example.ph",
      phone: "+639171234567",
      default_device: "phone",
    });
    expect(customer.id).toMatch(/^cus_[0-9A-Za-z]{24}$/);
    expect((await api.get(`/v1/customers/${customer.id}`)).body.data).toEqual(customer);
    const bad = await api.post("/v1/customers", { first_name: "Maria", email: "not-an-email", default_device: "pager" });
    expect(bad.body.errors.map((e: { source: { attribute: string } }) => e.source.attribute)).toEqual(["last_name", "email", "default_device"]);
  });
});
