import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { outboxCollection, type OutboxRecord } from "@bayad/events";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import { runBillingClock, startBillingClock } from "../clock/billing-clock.js";
import { simulateInvoiceOutcome } from "../invoices/invoices.js";
import { createPlan } from "../plans/plans.js";
import { createSubscription, getSubscription } from "../subscriptions/subscriptions.js";
import { caller, DAY_MS, eventTypes, expectOneEventPerChange, mutating, periodNumbers, T0, type BillingFixture } from "../test-support/billing-fixture.js";
import { billingOver, customerDirectory } from "../test-support/messages-fixture.js";

const at = (days: number) => new Date(T0.getTime() + days * DAY_MS);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Billing with its messages over `store`, a weekly plan's subscription (due 7 days after T0), and the clock run at a day. */
async function dunningOver(store: Store, clock = { at: T0 }) {
  const billing = billingOver(store, { customers: customerDirectory({ cus_a: { email: "juan@example.ph", name: "Juan" } }), clock });
  await store.ensureIndexes();
  const run = (days: number) => runBillingClock({ billing: billing.deps, messaging: billing.messaging.deps }, caller(), at(days));
  const reminders = async (invoiceId?: string) =>
    (await billing.outbox.list({ projectId: "prj_a", kind: "reminder" })).filter((message) => !invoiceId || message.resourceId === invoiceId).reverse();
  const invoices = async (subscriptionId: string) => billing.deps.invoices.listForSubscription(subscriptionId);
  const fixture = { store, deps: billing.deps, time: { now: () => clock.at, set: () => undefined }, outbox: store.collection<OutboxRecord>(outboxCollection) } as BillingFixture;
  return { billing, clock, run, reminders, invoices, fixture };
}

async function subscribe(deps: ReturnType<typeof billingOver>["deps"]) {
  const plan = await createPlan(deps, mutating(), { name: "Gold", amountMinor: 123_450, interval: "weekly" });
  return createSubscription(deps, mutating(), { customerId: "cus_a", referenceId: `ref-${Math.random()}`, priceId: plan._id, projectName: "Kape ni Juan" });
}

describe("dunning", () => {
  it("reminds on schedule (3 days before, on the day, 3 and 7 days after), each once, then marks the subscription unpaid, which bills no new period", async () => {
    const { billing, run, reminders, invoices, fixture } = await dunningOver(createTestStore());
    const subscription = await subscribe(billing.deps);
    const [first] = await invoices(subscription._id);
    expect(first).toMatchObject({ status: "open", dunningStep: 0, nextDunningAt: at(4) });

    // The lease-held clock takes the first step when it ticks at its time.
    const clock = startBillingClock({ deps: billing.deps, intervalMs: 3_600_000, leaseMs: 30_000, holderId: "clock-a", now: () => at(4), messaging: billing.messaging.deps });
    await clock.tick();
    await clock.tick();
    await clock.stop();
    expect((await reminders()).map((message) => message.subject)).toEqual(["Reminder from Kape ni Juan: ₱1,234.50 due in 3 days"]);
    const [sent] = await reminders();
    expect(sent).toMatchObject({ kind: "reminder", channel: "email", locale: "en", recipient: "juan@example.ph", resourceId: first!._id });
    expect(sent!.body).toContain("is due in 3 days, on February 7, 2027.");
    expect(sent!.body).toContain(`Pay your invoice: https://bayad.example${first!.hostedInvoiceUrl}`);
    expect(sent!.html).toContain(`href="https://bayad.example${first!.hostedInvoiceUrl}"`);

    expect(await run(7)).toMatchObject({ periodsClosed: 1, remindersSent: 1, finalActions: 0 });
    expect(await run(10)).toMatchObject({ periodsClosed: 0, remindersSent: 1, finalActions: 0 });
    // Day 14: period 2 closes (its invoice's -3 step at day 11 was missed, only its "due today" is
    // sent) and invoice 1's last step is taken, then its final action.
    expect(await run(14)).toMatchObject({ periodsClosed: 1, remindersSent: 2, finalActions: 1 });
    expect(await run(14)).toMatchObject({ periodsClosed: 0, remindersSent: 0, finalActions: 0 });

    expect((await reminders(first!._id)).map((message) => message.subject.replace(/^Reminder from Kape ni Juan: ₱1,234\.50 /, ""))).toEqual([
      "due in 3 days",
      "due today",
      "overdue by 3 days",
      "overdue by 7 days",
    ]);
    const [, second] = await invoices(subscription._id);
    expect((await reminders(second!._id)).map((message) => message.subject)).toEqual(["Reminder from Kape ni Juan: ₱1,234.50 due today"]);
    expect(await billing.deps.invoices.findById(caller(), first!._id)).toMatchObject({ status: "past_due", dunningStep: 4 });
    expect((await billing.deps.invoices.findById(caller(), first!._id))!.nextDunningAt).toBeUndefined();

    const unpaid = await getSubscription(billing.deps, caller(), subscription._id);
    expect(unpaid.status).toBe("unpaid");
    expect((await eventTypes(fixture, subscription._id)).filter((type) => type === "billing.subscription.unpaid")).toHaveLength(1);
    expect((await eventTypes(fixture, first!._id)).filter((type) => type === "billing.invoice.reminder_sent")).toHaveLength(4);

    // Unpaid: the clock closes no period, however late it runs.
    expect((await run(60)).periodsClosed).toBe(0);
    expect(await periodNumbers(billing.deps, subscription._id)).toEqual([1, 2, 3]);
    expect(await getSubscription(billing.deps, caller(), subscription._id)).toMatchObject({ status: "unpaid", cyclesBilled: 3 });
    await expectOneEventPerChange(fixture);
  });

  it("after downtime sends only the latest step due (saying how late it is), and never a step twice across a restart", async () => {
    const path = mkdtempSync(join(tmpdir(), "bayad-dunning-"));
    dirs.push(path);
    let store = createTestStore({ path });
    let dunning = await dunningOver(store);
    const subscription = await subscribe(dunning.billing.deps);
    const [first] = await dunning.invoices(subscription._id);

    // Down from before the first step until day 9: steps -3 and 0 are due, only 0 is taken.
    expect(await dunning.run(9)).toMatchObject({ remindersSent: 1 });
    expect((await dunning.reminders(first!._id)).map((message) => message.subject)).toEqual(["Reminder from Kape ni Juan: ₱1,234.50 overdue by 2 days"]);
    expect(await dunning.billing.messaging.deps.messages.listForInvoice(first!._id)).toEqual([
      expect.objectContaining({ step: "reminder:0", channel: "email", status: "sent", asOf: at(9) }),
    ]);

    await store.close();
    store = createTestStore({ path });
    dunning = await dunningOver(store);
    expect(await dunning.run(9)).toMatchObject({ remindersSent: 0 });
    expect(await dunning.run(10)).toMatchObject({ remindersSent: 1 });
    expect((await dunning.reminders(first!._id)).map((message) => message.subject.slice(-17))).toEqual(["overdue by 2 days", "overdue by 3 days"]);
    expect(await dunning.billing.deps.invoices.findById(caller(), first!._id)).toMatchObject({ dunningStep: 3, nextDunningAt: at(14) });
    await store.close();
  });

  it("stops when the invoice is paid, in the payment's transaction", async () => {
    const { billing, clock, run, reminders, invoices } = await dunningOver(createTestStore());
    const subscription = await subscribe(billing.deps);
    const [first] = await invoices(subscription._id);
    await run(4);
    clock.at = at(5);
    await simulateInvoiceOutcome(billing.deps, mutating(), first!._id, "pay");
    const paid = await billing.deps.invoices.findById(caller(), first!._id);
    expect(paid).toMatchObject({ status: "paid", dunningStep: 1 });
    expect(paid!.nextDunningAt).toBeUndefined();

    await run(7);
    // Day 14: past invoice 1's last step; only the next period's invoice is reminded.
    expect(await run(14)).toMatchObject({ remindersSent: 1, finalActions: 0 });
    expect((await reminders(first!._id)).map((message) => message.subject)).toEqual(["Reminder from Kape ni Juan: ₱1,234.50 due in 3 days"]);
    expect((await getSubscription(billing.deps, caller(), subscription._id)).status).toBe("past_due");
  });

  it("makes an unpaid subscription active again once no invoice is overdue, billing from a new period that starts then", async () => {
    const { billing, clock, run, invoices } = await dunningOver(createTestStore());
    const subscription = await subscribe(billing.deps);
    for (const day of [4, 7, 10, 14, 30]) await run(day);
    expect(await getSubscription(billing.deps, caller(), subscription._id)).toMatchObject({ status: "unpaid", cyclesBilled: 3 });
    const unpaid = await invoices(subscription._id);
    expect(unpaid.map((invoice) => invoice.status)).toEqual(["past_due", "past_due", "past_due"]);

    clock.at = at(30);
    await simulateInvoiceOutcome(billing.deps, mutating(), unpaid[0]!._id, "pay");
    await simulateInvoiceOutcome(billing.deps, mutating(), unpaid[1]!._id, "pay");
    expect((await getSubscription(billing.deps, caller(), subscription._id)).status).toBe("unpaid");
    await simulateInvoiceOutcome(billing.deps, mutating(), unpaid[2]!._id, "pay");
    // Active again; its current period (ended at day 21) closes now, not at its old end.
    expect(await getSubscription(billing.deps, caller(), subscription._id)).toMatchObject({ status: "active", currentPeriodEnd: at(30) });

    expect((await run(30)).periodsClosed).toBe(1);
    const resumed = await invoices(subscription._id);
    expect(resumed.map((invoice) => [invoice.periodNumber, invoice.status, invoice.periodStart.toISOString()])).toEqual([
      [1, "paid", at(0).toISOString()],
      [2, "paid", at(7).toISOString()],
      [3, "paid", at(14).toISOString()],
      [4, "open", at(30).toISOString()],
    ]);
    expect(resumed[3]!.nextDunningAt).toEqual(at(34));
    expect(await getSubscription(billing.deps, caller(), subscription._id)).toMatchObject({ status: "active", currentPeriodEnd: at(37) });
  });

  it("cancels the subscription after the last step when the project says so, voiding what is unpaid", async () => {
    const { billing, run, invoices, fixture } = await dunningOver(createTestStore());
    await billing.deps.settings.put(
      { projectId: "prj_a", smsEnabled: false, defaultLocale: "", supportContact: "", dunning: { steps: [{ offsetDays: 0 }, { offsetDays: 2 }], finalAction: "cancel" } },
      T0,
    );
    const subscription = await subscribe(billing.deps);
    expect(await run(7)).toMatchObject({ remindersSent: 1, finalActions: 0 });
    expect(await run(9)).toMatchObject({ remindersSent: 1, finalActions: 1 });
    expect(await getSubscription(billing.deps, caller(), subscription._id)).toMatchObject({ status: "cancelled", endedAt: at(9) });
    const voided = await invoices(subscription._id);
    expect(voided.map((invoice) => [invoice.status, invoice.nextDunningAt])).toEqual([
      ["void", undefined],
      ["void", undefined],
    ]);
    expect((await eventTypes(fixture, subscription._id)).at(-1)).toBe("billing.subscription.cancelled");
    expect(await run(30)).toMatchObject({ periodsClosed: 0, remindersSent: 0 });
    await expectOneEventPerChange(fixture);
  });

  it("refuses a bad schedule with 400 naming the field, writing nothing", async () => {
    const { billing } = await dunningOver(createTestStore());
    const put = (steps: Array<{ offsetDays: number }>, finalAction = "") =>
      billing.deps.settings.put({ projectId: "prj_a", smsEnabled: true, defaultLocale: "fil", supportContact: "", dunning: { steps, finalAction } }, T0);
    await expect(put([{ offsetDays: 3 }, { offsetDays: 3 }])).rejects.toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^dunning\.steps\[1\]\.offsetDays: /)] });
    await expect(put([{ offsetDays: -31 }])).rejects.toMatchObject({ details: [expect.stringMatching(/^dunning\.steps\[0\]\.offsetDays: /)] });
    await expect(put([{ offsetDays: 1 }], "suspend")).rejects.toMatchObject({ details: [expect.stringMatching(/^dunning\.finalAction: /)] });
    expect(await billing.deps.settings.get("prj_a")).toMatchObject({ smsEnabled: false, dunning: { steps: [{ offsetDays: -3 }, { offsetDays: 0 }, { offsetDays: 3 }, { offsetDays: 7 }], finalAction: "mark_unpaid" } });
    expect(await put([], "cancel")).toMatchObject({ smsEnabled: true, dunning: { steps: [], finalAction: "cancel" } });
  });
});
