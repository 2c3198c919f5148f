import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DeliveryFailedError, DeliveryUncertainError } from "@bayad/messaging";
import { createTestStore } from "@bayad/store/testing";
import type { createBillingDeps } from "../billing-deps.js";
import { simulateInvoiceOutcome } from "../invoices/invoices.js";
import { createSubscription } from "../subscriptions/subscriptions.js";
import { createPlan } from "../plans/plans.js";
import { mutating, T0 } from "../test-support/billing-fixture.js";
import { billingOver, customerDirectory, scriptedSender } from "../test-support/messages-fixture.js";
import { deliverDueMessages } from "./invoice-messages.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function subscribe(deps: ReturnType<typeof createBillingDeps>, customerId: string) {
  const plan = await createPlan(deps, mutating(), { name: "Gold", amountMinor: 123_450, interval: "monthly" });
  const subscription = await createSubscription(deps, mutating(), { customerId, referenceId: `ref-${customerId}`, priceId: plan._id, projectName: "Kape ni Juan" });
  const [invoice] = await deps.invoices.listForSubscription(subscription._id);
  return { subscription, invoice: invoice! };
}

describe("invoice messages", () => {
  it("sends a test-mode invoice to the development outbox once, in English, even when its event comes again after a restart", async () => {
    const path = mkdtempSync(join(tmpdir(), "bayad-billing-messages-"));
    dirs.push(path);
    const clock = { at: T0 };
    const customers = customerDirectory({ cus_en: { email: "Juan@Example.ph", name: "Juan", phone: "+639171234567" } });
    let store = createTestStore({ path });
    let billing = billingOver(store, { customers, clock });
    await store.ensureIndexes();
    const { invoice } = await subscribe(billing.deps, "cus_en");
    expect(invoice.status).toBe("open");

    await billing.deliverEvents();
    await billing.deliverEvents();
    let held = await billing.outbox.list({ projectId: "prj_a" });
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ kind: "invoice", channel: "email", locale: "en", projectId: "prj_a", resourceId: invoice._id, recipient: "Juan@Example.ph" });
    expect(held[0]!.subject).toBe("Invoice from Kape ni Juan: ₱1,234.50 due February 28, 2027");
    expect(held[0]!.body).toContain(`Pay your invoice: https://bayad.example${invoice.hostedInvoiceUrl}`);
    expect(held[0]!.html).toContain("₱1,234.50");
    // SMS is off unless the project enables it; live mode's senders are never used for test mode.
    expect([billing.live.email.sent, billing.live.sms.sent]).toEqual([[], []]);

    // A restart: the store is reopened and the bus delivers the same events again.
    await store.close();
    store = createTestStore({ path });
    billing = billingOver(store, { customers, clock });
    await store.ensureIndexes();
    await billing.deliverEvents();
    clock.at = new Date(T0.getTime() + 60 * 60 * 1000);
    await deliverDueMessages(billing.messaging.deps);
    held = await billing.outbox.list({ projectId: "prj_a" });
    expect(held).toHaveLength(1);
    expect(await billing.messaging.deps.messages.listForInvoice(invoice._id)).toEqual([
      expect.objectContaining({ step: "invoice", channel: "email", status: "sent", attempts: 1 }),
    ]);
    await store.close();
  });

  it("writes in Filipino to a customer who reads it, or by the project's default, and texts them when the project enables SMS", async () => {
    const clock = { at: T0 };
    const store = createTestStore();
    const customers = customerDirectory({
      cus_fil: { email: "maria@example.ph", phone: "+639181234567", locale: "fil" },
      cus_default: { email: "pedro@example.ph" },
    });
    const billing = billingOver(store, { customers, clock });
    await store.ensureIndexes();
    await billing.messaging.deps.settings.put({ projectId: "prj_a", smsEnabled: true, defaultLocale: "fil", supportContact: "tulong@kape.ph" }, T0);
    const { invoice } = await subscribe(billing.deps, "cus_fil");
    await subscribe(billing.deps, "cus_default");
    await billing.deliverEvents();

    const toMaria = await billing.outbox.list({ recipient: "maria@example.ph" });
    expect(toMaria).toEqual([expect.objectContaining({ locale: "fil", channel: "email", kind: "invoice" })]);
    expect(toMaria[0]!.subject).toBe("Singil mula sa Kape ni Juan: ₱1,234.50, bayaran bago ang Pebrero 28, 2027");
    expect(toMaria[0]!.body).toContain("May tanong? Makipag-ugnayan sa Kape ni Juan sa tulong@kape.ph.");
    const sms = await billing.outbox.list({ recipient: "09181234567" });
    expect(sms).toEqual([expect.objectContaining({ channel: "sms", locale: "fil", resourceId: invoice._id })]);
    expect(sms[0]!.body).toMatch(/^Singil mula sa Kape ni Juan: ₱1,234\.50, bayaran bago ang Pebrero 28, 2027\. Magbayad sa https:\/\/bayad\.example\//);
    // No phone, no SMS; no locale, the project's default.
    expect(await billing.outbox.list({ recipient: "pedro@example.ph" })).toEqual([expect.objectContaining({ locale: "fil", channel: "email" })]);
    expect(await billing.outbox.list({ projectId: "prj_a" })).toHaveLength(3);
  });

  it("sends a receipt once the invoice is paid, once", async () => {
    const clock = { at: T0 };
    const store = createTestStore();
    const billing = billingOver(store, { customers: customerDirectory({ cus_en: { email: "juan@example.ph" } }), clock });
    await store.ensureIndexes();
    const { invoice } = await subscribe(billing.deps, "cus_en");
    await simulateInvoiceOutcome(billing.deps, mutating(), invoice._id, "pay");
    await billing.deliverEvents();
    await billing.deliverEvents();

    expect((await billing.outbox.list({ projectId: "prj_a", kind: "invoice" })).map((m) => m.resourceId)).toEqual([invoice._id]);
    const receipts = await billing.outbox.list({ projectId: "prj_a", kind: "receipt" });
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.subject).toBe("Receipt from Kape ni Juan: ₱1,234.50 paid");
    expect(receipts[0]!.body).toContain("Paid on: January 31, 2027");
  });

  it("tries a definite failure again after a doubling wait, gives up after the last try, and never repeats an uncertain send", async () => {
    const clock = { at: T0 };
    const store = createTestStore();
    const sender = scriptedSender([new DeliveryFailedError("refused"), new DeliveryFailedError("refused again")]);
    const customers = customerDirectory({ cus_a: { email: "a@example.ph" }, cus_b: { email: "b@example.ph" } });
    const billing = billingOver(store, { customers, clock, testSender: sender });
    await store.ensureIndexes();
    const { invoice } = await subscribe(billing.deps, "cus_a");
    await billing.deliverEvents();
    const [first] = await billing.messaging.deps.messages.listForInvoice(invoice._id);
    expect(first).toMatchObject({ status: "pending", attempts: 1, failure: "refused", nextAttemptAt: new Date(T0.getTime() + 1_000) });

    // Not due yet: nothing is tried.
    await deliverDueMessages(billing.messaging.deps);
    expect(sender.sent).toHaveLength(0);
    clock.at = new Date(T0.getTime() + 1_000);
    await deliverDueMessages(billing.messaging.deps);
    expect((await billing.messaging.deps.messages.findById(first!._id))).toMatchObject({ status: "pending", attempts: 2, nextAttemptAt: new Date(T0.getTime() + 3_000) });
    clock.at = new Date(T0.getTime() + 3_000);
    await deliverDueMessages(billing.messaging.deps);
    expect(await billing.messaging.deps.messages.findById(first!._id)).toMatchObject({ status: "sent", attempts: 3 });
    expect(sender.sent.map((m) => m.recipient)).toEqual(["a@example.ph"]);

    // An uncertain send is never repeated, however long one waits.
    const second = await subscribe(billing.deps, "cus_b");
    const uncertain = scriptedSender([new DeliveryUncertainError("connection reset")]);
    billing.messaging.deps.senders.test = uncertain;
    await billing.deliverEvents();
    clock.at = new Date(T0.getTime() + 24 * 60 * 60 * 1000);
    await deliverDueMessages(billing.messaging.deps);
    await billing.deliverEvents();
    expect(await billing.messaging.deps.messages.listForInvoice(second.invoice._id)).toEqual([expect.objectContaining({ status: "uncertain", attempts: 1 })]);
    expect(uncertain.sent).toEqual([]);
  });

  it("gives up after the last try, and takes a send its process never finished for uncertain", async () => {
    const clock = { at: T0 };
    const store = createTestStore();
    const failing = scriptedSender([new DeliveryFailedError("no"), new DeliveryFailedError("no"), new DeliveryFailedError("no")]);
    const billing = billingOver(store, { customers: customerDirectory({ cus_a: { email: "a@example.ph" } }), clock, testSender: failing });
    await store.ensureIndexes();
    const { invoice } = await subscribe(billing.deps, "cus_a");
    await billing.deliverEvents();
    for (let i = 0; i < 5; i++) {
      clock.at = new Date(clock.at.getTime() + 60_000);
      await deliverDueMessages(billing.messaging.deps);
    }
    const [message] = await billing.messaging.deps.messages.listForInvoice(invoice._id);
    expect(message).toMatchObject({ status: "failed", attempts: 3 });

    // A claim whose process died mid-send (status sending, never settled) is not sent again.
    const { messages } = billing.messaging.deps;
    await messages.collection.updateOne({ _id: message!._id }, { $set: { status: "pending", attempts: 0, nextAttemptAt: clock.at } });
    await messages.claim({ _id: message!._id, attempts: 0 }, clock.at);
    clock.at = new Date(clock.at.getTime() + 17_000);
    await deliverDueMessages(billing.messaging.deps);
    expect(await messages.findById(message!._id)).toMatchObject({ status: "uncertain", attempts: 1 });
    expect(failing.sent).toEqual([]);
  });

  it("leaves an event unacknowledged while the customer cannot be looked up, and sends once it can", async () => {
    const clock = { at: T0 };
    const store = createTestStore();
    const customers = customerDirectory({ cus_a: { email: "a@example.ph" } });
    const billing = billingOver(store, { customers, clock });
    await store.ensureIndexes();
    await subscribe(billing.deps, "cus_a");
    customers.down = true;
    await expect(billing.deliverEvents()).rejects.toThrow(/payments unavailable/);
    expect(await billing.outbox.list({ projectId: "prj_a" })).toEqual([]);
    customers.down = false;
    await billing.deliverEvents();
    expect(await billing.outbox.list({ projectId: "prj_a" })).toHaveLength(1);
  });
});
