import { describe, expect, it } from "vitest";
import { createTestStore } from "@bayad/store/testing";
import { startBillingClock } from "../clock/billing-clock.js";
import { simulateInvoiceOutcome } from "../invoices/invoices.js";
import { createPlan } from "../plans/plans.js";
import { createSubscription } from "../subscriptions/subscriptions.js";
import { DAY_MS, mutating, T0 } from "../test-support/billing-fixture.js";
import { billingOver, customerDirectory } from "../test-support/messages-fixture.js";

async function sweepOver(clock = { at: T0 }) {
  const store = createTestStore();
  const billing = billingOver(store, { customers: customerDirectory({ cus_a: { email: "juan@example.ph" }, cus_b: { email: "maria@example.ph" } }), clock });
  await store.ensureIndexes();
  const plan = await createPlan(billing.deps, mutating(), { name: "Gold", amountMinor: 123_450, interval: "monthly" });
  const subscribe = async (customerId: string) => {
    const subscription = await createSubscription(billing.deps, mutating(), { customerId, referenceId: `ref-${customerId}`, priceId: plan._id, projectName: "Kape ni Juan" });
    const [invoice] = await billing.deps.invoices.listForSubscription(subscription._id);
    return invoice!;
  };
  // The lease-held clock, ticked by hand at the test's time.
  const tick = async () => {
    const running = startBillingClock({ deps: billing.deps, intervalMs: 3_600_000, leaseMs: 30_000, holderId: "clock-a", now: () => clock.at, messaging: billing.messaging.deps });
    await running.tick();
    await running.stop();
  };
  const held = async (kind: "invoice" | "receipt") => (await billing.outbox.list({ projectId: "prj_a", kind })).map((message) => message.resourceId);
  return { billing, clock, subscribe, tick, held };
}

describe("the catch-up of invoice messages", () => {
  it("sends an invoice whose event was never handled once, at the clock's round; the event delivered afterwards sends nothing more", async () => {
    const { billing, clock, subscribe, tick, held } = await sweepOver();
    // The process stopped between the invoice's event and its handling: the consumer never ran.
    const invoice = await subscribe("cus_a");
    expect(invoice.status).toBe("open");
    expect(await held("invoice")).toEqual([]);

    clock.at = new Date(T0.getTime() + 60_000);
    await tick();
    expect(await held("invoice")).toEqual([invoice._id]);
    await tick();
    await billing.deliverEvents();
    await billing.deliverEvents();
    expect(await held("invoice")).toEqual([invoice._id]);
    expect(await billing.messaging.deps.messages.listForInvoice(invoice._id)).toEqual([
      expect.objectContaining({ step: "invoice", channel: "email", status: "sent", attempts: 1 }),
    ]);
  });

  it("leaves an invoice the consumer handled as it is, and sends a receipt whose event was never handled once", async () => {
    const { billing, clock, subscribe, tick, held } = await sweepOver();
    const invoice = await subscribe("cus_a");
    await billing.deliverEvents();
    // Paid, and the process stopped before the paid event was handled.
    await simulateInvoiceOutcome(billing.deps, mutating(), invoice._id, "pay");

    clock.at = new Date(T0.getTime() + DAY_MS);
    await tick();
    await tick();
    expect(await held("invoice")).toEqual([invoice._id]);
    expect(await held("receipt")).toEqual([invoice._id]);
    await billing.deliverEvents();
    expect(await held("receipt")).toEqual([invoice._id]);
    expect((await billing.messaging.deps.messages.listForInvoice(invoice._id)).map((message) => [message.step, message.status])).toEqual([
      ["invoice", "sent"],
      ["receipt", "sent"],
    ]);
  });

  it("looks back 7 days only: an invoice opened earlier is left unsent", async () => {
    const { clock, subscribe, tick, held } = await sweepOver();
    const old = await subscribe("cus_a");
    clock.at = new Date(T0.getTime() + 7 * DAY_MS - 1);
    const recent = await subscribe("cus_b");
    clock.at = new Date(T0.getTime() + 7 * DAY_MS + 1);
    await tick();
    expect(await held("invoice")).toEqual([recent._id]);
    expect(old.createdAt.getTime()).toBe(T0.getTime());
  });
});
