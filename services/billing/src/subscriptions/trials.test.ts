import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "@bayad/kit";
import { createTestStore } from "@bayad/store/testing";
import { outboxCollection, type OutboxRecord } from "@bayad/events";
import { createBillingDeps, type BillingDeps } from "../billing-deps.js";
import { startBillingClock, type BillingClock } from "../clock/billing-clock.js";
import { createPlan } from "../plans/plans.js";
import { billingFixture, caller, DAY_MS, eventTypes, expectOneEventPerChange, mutating, sandbox, T0, type BillingFixture } from "../test-support/billing-fixture.js";
import { advanceSubscription, cancelSubscription, createSubscription, getSubscription, listSubscriptionInvoices } from "./subscriptions.js";

const clocks: BillingClock[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(clocks.splice(0).map((clock) => clock.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const at = (days: number) => new Date(T0.getTime() + days * DAY_MS);

function clockOf(deps: BillingDeps, now: () => Date) {
  const clock = startBillingClock({ deps, intervalMs: 3_600_000, leaseMs: 30_000, holderId: "clock-a", now });
  clocks.push(clock);
  return clock;
}

let references = 0;

async function trialing(deps: BillingDeps, options: { planTrialDays?: number; trialDays?: number; interval?: "weekly" | "monthly" } = {}) {
  const plan = await createPlan(deps, mutating(), { name: "Gold", amountMinor: 49_900, interval: options.interval ?? "monthly", trialDays: options.planTrialDays });
  return createSubscription(deps, mutating(), {
    customerId: "cus_1",
    referenceId: `trial-${++references}`,
    priceId: plan._id,
    ...(options.trialDays !== undefined ? { trialDays: options.trialDays } : {}),
  });
}

async function trialWillEndEvents(fixture: Pick<BillingFixture, "outbox">, subscriptionId: string) {
  return (await eventTypes(fixture as BillingFixture, subscriptionId)).filter((type) => type === "billing.subscription.trial_will_end");
}

describe("trials", () => {
  it("bills nothing during the trial; the clock ends it at trialEnd and the first period starts there", async () => {
    const fixture = await billingFixture();
    const subscription = await trialing(fixture.deps, { planTrialDays: 14 });
    expect(subscription).toMatchObject({ status: "trialing", cyclesBilled: 0, trialEnd: at(14), currentPeriodStart: T0, currentPeriodEnd: at(14) });
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toEqual([]);

    // A day before the trial ends: still nothing billed.
    await clockOf(fixture.deps, () => at(13)).tick();
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toEqual([]);

    await clockOf(fixture.deps, () => at(14)).tick();
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodNumber, invoice.status, invoice.amountMinor, invoice.periodStart, invoice.periodEnd])).toEqual([
      // Anchored at trialEnd (Feb 14, Manila noon): period 1 runs to Mar 14.
      [1, "open", 49_900, at(14), new Date("2027-03-14T04:00:00.000Z")],
    ]);
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ status: "pending", cyclesBilled: 1, trialWillEndAt: null });
    expect(await eventTypes(fixture, subscription._id)).toEqual([
      "billing.subscription.created",
      "billing.subscription.trial_will_end",
      "billing.subscription.pending",
      "billing.subscription.renewed",
    ]);
    await expectOneEventPerChange(fixture);
  });

  it("lets the subscription override the plan's trial, 0 meaning none", async () => {
    const fixture = await billingFixture();
    const longer = await trialing(fixture.deps, { planTrialDays: 14, trialDays: 30 });
    expect(longer.trialEnd).toEqual(at(30));
    const none = await trialing(fixture.deps, { planTrialDays: 14, trialDays: 0 });
    expect(none).toMatchObject({ status: "pending", cyclesBilled: 1 });
    expect(none.trialEnd).toBeUndefined();
    expect(await listSubscriptionInvoices(fixture.deps, caller(), none._id)).toHaveLength(1);
    await expect(trialing(fixture.deps, { trialDays: 731 })).rejects.toMatchObject({ code: "VALIDATION_FAILED", details: ["trialDays: must be an integer from 0 to 730"] });
    await expect(createPlan(fixture.deps, mutating(), { name: "x", amountMinor: 5000, interval: "monthly", trialDays: -1 })).rejects.toMatchObject({
      details: ["trialDays: must be an integer from 0 to 730"],
    });
  });

  it("announces trial_will_end 3 days before trialEnd, once, also across a restart of the store", async () => {
    const path = mkdtempSync(join(tmpdir(), "bayad-billing-trials-"));
    dirs.push(path);
    let now = T0;
    const open = async () => {
      const store = createTestStore({ path });
      const deps = createBillingDeps({ store, providers: { test: sandbox() }, logger: createLogger("test", "silent"), now: () => now });
      await store.ensureIndexes();
      return { store, deps, outbox: store.collection<OutboxRecord>(outboxCollection) };
    };
    let { store, deps, outbox } = await open();
    const subscription = await trialing(deps, { trialDays: 14 });
    expect(subscription.trialWillEndAt).toEqual(at(11));

    now = new Date(at(11).getTime() - 1);
    await clockOf(deps, () => now).tick();
    expect(await trialWillEndEvents({ outbox }, subscription._id)).toEqual([]);

    now = at(11);
    await clockOf(deps, () => now).tick();
    await clockOf(deps, () => now).tick();
    expect(await trialWillEndEvents({ outbox }, subscription._id)).toEqual(["billing.subscription.trial_will_end"]);
    await Promise.all(clocks.splice(0).map((clock) => clock.stop()));
    await store.close();

    ({ store, deps, outbox } = await open());
    now = at(12);
    await clockOf(deps, () => now).tick();
    expect(await trialWillEndEvents({ outbox }, subscription._id)).toEqual(["billing.subscription.trial_will_end"]);
    expect(await getSubscription(deps, caller(), subscription._id)).toMatchObject({ status: "trialing", trialWillEndAt: null });
    await Promise.all(clocks.splice(0).map((clock) => clock.stop()));
    await store.close();
  });

  it("announces a trial of 3 days or less at creation, in its creating transaction", async () => {
    const fixture = await billingFixture();
    const subscription = await trialing(fixture.deps, { trialDays: 3 });
    expect(subscription).toMatchObject({ status: "trialing", aggregateVersion: 2, trialWillEndAt: null });
    expect(await eventTypes(fixture, subscription._id)).toEqual(["billing.subscription.created", "billing.subscription.trial_will_end"]);
    await clockOf(fixture.deps, () => at(1)).tick();
    expect(await trialWillEndEvents(fixture, subscription._id)).toHaveLength(1);
  });

  it("does not announce a trial late: a clock back after trialEnd ends it unannounced and bills it", async () => {
    const fixture = await billingFixture();
    const subscription = await trialing(fixture.deps, { trialDays: 10, interval: "weekly" });
    await clockOf(fixture.deps, () => at(24.5)).tick();
    expect(await trialWillEndEvents(fixture, subscription._id)).toEqual([]);
    // Period 1 from day 10, 2 from day 17, 3 from day 24: each billed once.
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodNumber, invoice.periodStart])).toEqual([
      [1, at(10)],
      [2, at(17)],
      [3, at(24)],
    ]);
    await expectOneEventPerChange(fixture);
  });

  it("cancelling during the trial ends the subscription at once, with no invoice ever", async () => {
    const fixture = await billingFixture();
    const subscription = await trialing(fixture.deps, { trialDays: 14 });
    fixture.time.set(at(2));
    const cancelled = await cancelSubscription(fixture.deps, mutating(), subscription._id);
    expect(cancelled).toMatchObject({ status: "cancelled", endedAt: at(2), trialWillEndAt: null });
    await clockOf(fixture.deps, () => at(40)).tick();
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toEqual([]);
    expect(await eventTypes(fixture, subscription._id)).toEqual(["billing.subscription.created", "billing.subscription.cancelled"]);
  });

  it("the advance test helper ends a trial now: the first period starts then", async () => {
    const fixture = await billingFixture();
    const subscription = await trialing(fixture.deps, { trialDays: 14 });
    fixture.time.set(at(1));
    const advanced = await advanceSubscription(fixture.deps, mutating(), subscription._id);
    expect(advanced).toMatchObject({ status: "pending", cyclesBilled: 1, currentPeriodStart: at(1), billingAnchor: at(1) });
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodNumber, invoice.status, invoice.periodStart])).toEqual([[1, "open", at(1)]]);
  });
});
