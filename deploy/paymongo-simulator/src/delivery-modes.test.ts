import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { simulatorWithWebhook, type Fixture } from "./test-support/fixtures.js";

let f: Fixture;
beforeEach(async () => {
  f = await simulatorWithWebhook({}, { events: ["payment.paid"] });
});
afterEach(async () => {
  await f.close();
});

/** Pays a new intent; each payment is one payment.paid event. */
async function payment(): Promise<string> {
  const pi = await f.api.create("/v1/payment_intents", { amount: 2000, currency: "PHP", payment_method_allowed: ["gcash"] });
  return (await f.sim.payPaymentIntent(pi.id)).paymentId;
}
const deliveredPayments = () => f.receiver.received.map((r) => r.json.data.attributes.data.id as string);

describe("setWebhookDelivery", () => {
  it("deliver: each event once", async () => {
    const id = await payment();
    await f.sim.flushDeliveries();
    expect(deliveredPayments()).toEqual([id]);
  });

  it("drop: events are made but never sent", async () => {
    f.sim.setWebhookDelivery({ mode: "drop" });
    await payment();
    await f.sim.flushDeliveries();
    expect(f.receiver.received).toEqual([]);
    expect(f.sim.deliveries()).toEqual([]);
    expect(f.sim.events().map((e) => e.type)).toEqual(["payment.paid"]);
  });

  it("delay: the delivery waits delayMs, and flushDeliveries waits for it", async () => {
    f.sim.setWebhookDelivery({ mode: "delay", delayMs: 200 });
    const id = await payment();
    expect(f.receiver.received).toEqual([]);
    await f.sim.flushDeliveries();
    expect(deliveredPayments()).toEqual([id]);
  });

  it("duplicate: the same event arrives twice", async () => {
    f.sim.setWebhookDelivery({ mode: "duplicate" });
    const id = await payment();
    await f.sim.flushDeliveries();
    expect(deliveredPayments()).toEqual([id, id]);
    const [first, second] = f.receiver.received;
    expect(second!.json.data.id).toBe(first!.json.data.id);
  });

  it("reorder: deliveries are held and sent newest-first at flushDeliveries", async () => {
    f.sim.setWebhookDelivery({ mode: "reorder" });
    const ids = [await payment(), await payment(), await payment()];
    expect(f.receiver.received).toEqual([]);
    await f.sim.flushDeliveries();
    expect(deliveredPayments()).toEqual([...ids].reverse());
  });

  it("leaving reorder releases what it held", async () => {
    f.sim.setWebhookDelivery({ mode: "reorder" });
    const id = await payment();
    f.sim.setWebhookDelivery({ mode: "deliver" });
    await f.receiver.waitFor(1);
    expect(deliveredPayments()).toEqual([id]);
  });

  it("refuses an unknown mode", () => {
    expect(() => f.sim.setWebhookDelivery({ mode: "shuffle" as "drop" })).toThrow(/mode must be one of/);
  });
});
