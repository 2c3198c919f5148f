import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startPaymongoSimulator, type PaymongoSimulator } from "./index.js";
import { apiClient, checkoutSessionAttributes, type ApiClient } from "./test-support/api-client.js";

let sim: PaymongoSimulator;
let api: ApiClient;
beforeEach(async () => {
  sim = await startPaymongoSimulator();
  api = apiClient(sim.url);
});
afterEach(async () => {
  await sim.close();
});

const codes = (body: { errors: Array<{ code: string; source?: { attribute: string } }> }) => body.errors.map((e) => [e.source?.attribute, e.code]);
const intent = (amount: number, methods: string[]) => api.post("/v1/payment_intents", { amount, currency: "PHP", payment_method_allowed: methods });
const session = (amount: number, methods: string[]) =>
  api.post("/v1/checkout_sessions", checkoutSessionAttributes({ line_items: [{ name: "Item", amount, currency: "PHP", quantity: 1 }], payment_method_types: methods }));

describe("per-method amount limits", () => {
  it("take an e-wallet intent up to ₱100,000 and refuse a centavo more, making nothing", async () => {
    expect((await intent(10_000_000, ["gcash"])).status).toBe(200);
    const over = await intent(10_000_001, ["gcash"]);
    expect(over.status).toBe(400);
    expect(codes(over.body)).toEqual([["amount", "parameter_above_maximum"]]);
    expect(sim.objects("payment_intent")).toHaveLength(1);
  });

  it("refuse a QR Ph intent over ₱50,000 and a card one of ₱10,000,000, but not one below it", async () => {
    expect(codes((await intent(5_000_001, ["qrph"])).body)).toEqual([["amount", "parameter_above_maximum"]]);
    expect(codes((await intent(1_000_000_000, ["card"])).body)).toEqual([["amount", "parameter_above_maximum"]]);
    expect((await intent(999_999_999, ["card"])).status).toBe(200);
  });

  it("refuse a BillEase intent under ₱100 and keep the ₱20 minimum for all", async () => {
    expect(codes((await intent(9_999, ["billease"])).body)).toEqual([["amount", "parameter_below_minimum"]]);
    expect(codes((await intent(1_999, ["gcash"])).body)).toEqual([["amount", "parameter_below_minimum"]]);
  });

  it("refuse a checkout session whose total a listed method cannot take", async () => {
    const over = await session(6_000_000, ["card", "qrph"]);
    expect(over.status).toBe(400);
    expect(codes(over.body)).toEqual([["line_items", "parameter_above_maximum"]]);
    expect((await session(6_000_000, ["card", "gcash"])).status).toBe(200);
    expect(codes((await session(1_999, ["card"])).body)).toEqual([["line_items", "parameter_below_minimum"]]);
    expect(sim.objects("checkout_session")).toHaveLength(1);
  });
});
