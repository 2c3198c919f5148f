import { describe, expect, it } from "vitest";
import { startBillingClock } from "../clock/billing-clock.js";
import { simulateInvoiceOutcome } from "../invoices/invoices.js";
import { createPlan } from "../plans/plans.js";
import { billingFixture, caller, DAY_MS, eventTypes, expectOneEventPerChange, mutating, T0, type BillingFixture } from "../test-support/billing-fixture.js";
import { cancelSubscription, createSubscription, getSubscription, listSubscriptionInvoices } from "../subscriptions/subscriptions.js";
import { changePlan, previewPlanChange } from "./plan-changes.js";

// T0 is Jan 31 12:00 Manila: a monthly subscription's period 1 runs Jan 31 → Feb 28 (28 days).
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS);
const FEB_28 = new Date("2027-02-28T04:00:00.000Z");

let references = 0;

async function monthly(fixture: BillingFixture, amountMinor: number, extra: { trialDays?: number; interval?: "monthly" | "weekly" } = {}) {
  return createPlan(fixture.deps, mutating(), { name: `Plan ${amountMinor}`, amountMinor, interval: extra.interval ?? "monthly", trialDays: extra.trialDays });
}

async function subscribed(fixture: BillingFixture, amountMinor = 499_00, trialDays?: number) {
  const plan = await monthly(fixture, amountMinor, { trialDays });
  const subscription = await createSubscription(fixture.deps, mutating(), { customerId: "cus_1", referenceId: `change-${++references}`, priceId: plan._id });
  return { plan, subscription };
}

describe("changing plans now", () => {
  it("invoices the unused part of the period on the old price as a credit and the rest on the new, as previewed", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture, 499_00);
    const [first] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    await simulateInvoiceOutcome(fixture.deps, mutating(), first!._id, "pay");
    const gold = await monthly(fixture, 999_00);

    // 14 days into the 28-day period: 14 days = 1,209,600 s of 2,419,200 s left, exactly half.
    // credit −49,900 / 2 = −24,950; charge 99,900 / 2 = 49,950; total 25,000.
    fixture.time.set(at(14));
    const preview = await previewPlanChange(fixture.deps, caller(), subscription._id, { priceId: gold._id, prorate: "now" });
    expect(preview).toMatchObject({ totalMinor: 25_000, amountDueMinor: 25_000, creditCarriedMinor: 0, effectiveAt: at(14) });
    expect(preview.lines.map((line) => [line.kind, line.amountMinor])).toEqual([
      ["proration", -24_950],
      ["proration", 49_950],
    ]);
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ planId: subscription.planId, aggregateVersion: subscription.aggregateVersion + 1 });

    const changed = await changePlan(fixture.deps, mutating(), subscription._id, { priceId: gold._id, prorate: "now", prorationDate: preview.prorationDate });
    expect(changed.subscription).toMatchObject({ planId: gold._id, amountMinor: 999_00, planName: "Plan 99900", planChanges: 1, creditBalanceMinor: 0 });
    expect(changed.invoice).toMatchObject({ periodNumber: 1, planChange: 1, amountMinor: 25_000, periodStart: at(14), periodEnd: FEB_28, lines: preview.lines });
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodNumber, invoice.status, invoice.amountMinor])).toEqual([
      [1, "paid", 499_00],
      [1, "open", 25_000],
    ]);

    // The next period bills the new price.
    fixture.time.set(FEB_28);
    const clock = startBillingClock({ deps: fixture.deps, intervalMs: 3_600_000, leaseMs: 30_000, holderId: "c", now: () => FEB_28 });
    await clock.tick();
    await clock.stop();
    const after = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(after.at(-1)).toMatchObject({ periodNumber: 2, amountMinor: 999_00, lines: [{ kind: "charge", amountMinor: 999_00, description: "Plan 99900, period 2" }] });
    expect(await eventTypes(fixture, subscription._id)).toContain("billing.subscription.plan_changed");
    await expectOneEventPerChange(fixture);
  });

  it("carries a downgrade's net credit on the subscription and takes it off the next invoice", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture, 999_00);
    const basic = await monthly(fixture, 499_00);
    // 21 days in, 7 of 28 days left = 1/4: credit −99,900/4 = −24,975; charge 49,900/4 = 12,475; total −12,500.
    fixture.time.set(at(21));
    const changed = await changePlan(fixture.deps, mutating(), subscription._id, { priceId: basic._id, prorate: "now" });
    expect(changed.invoice).toBeUndefined();
    expect(changed.subscription).toMatchObject({ creditBalanceMinor: 12_500, amountMinor: 499_00 });

    fixture.time.set(FEB_28);
    const clock = startBillingClock({ deps: fixture.deps, intervalMs: 3_600_000, leaseMs: 30_000, holderId: "c", now: () => FEB_28 });
    await clock.tick();
    await clock.stop();
    const next = (await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).at(-1)!;
    // 49,900 − 12,500 = 37,400.
    expect(next).toMatchObject({ periodNumber: 2, amountMinor: 37_400 });
    expect(next.lines!.map((line) => [line.kind, line.amountMinor])).toEqual([
      ["charge", 49_900],
      ["credit", -12_500],
    ]);
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ creditBalanceMinor: 0 });
    await expectOneEventPerChange(fixture);
  });

  it("settles at once, without a payment page, an invoice the credit balance covers", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture, 5_000_00);
    const small = await monthly(fixture, 20_00);
    const big = await monthly(fixture, 30_00);
    // At the first second: credit the whole ₱5,000, charge ₱20: ₱4,980 carried.
    const down = await changePlan(fixture.deps, mutating(), subscription._id, { priceId: small._id, prorate: "now" });
    expect(down.subscription.creditBalanceMinor).toBe(4_980_00);
    // Then ₱20 → ₱30 at the first second: +₱10 due, all of it from the balance.
    const up = await changePlan(fixture.deps, mutating(), subscription._id, { priceId: big._id, prorate: "now" });
    expect(up.subscription.creditBalanceMinor).toBe(4_970_00);
    expect(up.invoice).toMatchObject({ amountMinor: 0, planChange: 2 });
    const settled = (await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).find((invoice) => invoice.planChange === 2)!;
    expect(settled.status).toBe("paid");
    expect(settled.hostedInvoiceUrl).toBeUndefined();
  });

  it("changes a trial's plan at once, invoicing nothing", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture, 499_00, 14);
    const gold = await monthly(fixture, 999_00);
    const changed = await changePlan(fixture.deps, mutating(), subscription._id, { priceId: gold._id, prorate: "now" });
    expect(changed).toEqual({ subscription: expect.objectContaining({ status: "trialing", planId: gold._id, amountMinor: 999_00 }) });
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toEqual([]);
  });
});

describe("changing plans at the period's end", () => {
  it("schedules the change and applies it when the period closes", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture, 499_00);
    const gold = await monthly(fixture, 999_00);
    fixture.time.set(at(3));
    const preview = await previewPlanChange(fixture.deps, caller(), subscription._id, { priceId: gold._id, prorate: "at_period_end" });
    expect(preview).toMatchObject({ lines: [], totalMinor: 0, effectiveAt: FEB_28 });
    const scheduled = await changePlan(fixture.deps, mutating(), subscription._id, { priceId: gold._id, prorate: "at_period_end" });
    expect(scheduled.subscription).toMatchObject({ planId: subscription.planId, amountMinor: 499_00, pendingPlanChange: { planId: gold._id, amountMinor: 999_00 } });
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toHaveLength(1);

    const clock = startBillingClock({ deps: fixture.deps, intervalMs: 3_600_000, leaseMs: 30_000, holderId: "c", now: () => FEB_28 });
    await clock.tick();
    await clock.stop();
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ planId: gold._id, amountMinor: 999_00, pendingPlanChange: null, cyclesBilled: 2 });
    expect((await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).map((invoice) => invoice.amountMinor)).toEqual([499_00, 999_00]);
    await expectOneEventPerChange(fixture);
  });
});

describe("refusals", () => {
  it("refuses the plan it has (400), another cadence (400), no prorate (400), an unknown plan (404), writing nothing", async () => {
    const fixture = await billingFixture();
    const { plan, subscription } = await subscribed(fixture);
    const weekly = await monthly(fixture, 999_00, { interval: "weekly" });
    const gold = await monthly(fixture, 999_00);
    const before = await getSubscription(fixture.deps, caller(), subscription._id);
    await expect(changePlan(fixture.deps, mutating(), subscription._id, { priceId: plan._id, prorate: "now" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["priceId: is the subscription's plan already"],
    });
    await expect(changePlan(fixture.deps, mutating(), subscription._id, { priceId: weekly._id, prorate: "now" })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(changePlan(fixture.deps, mutating(), subscription._id, { priceId: gold._id, prorate: undefined })).rejects.toMatchObject({
      details: ["prorate: must be now or at_period_end"],
    });
    await expect(changePlan(fixture.deps, mutating(), subscription._id, { priceId: "plan_nope", prorate: "now" })).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    fixture.time.set(at(5));
    await expect(changePlan(fixture.deps, mutating(), subscription._id, { priceId: gold._id, prorate: "now", prorationDate: at(6) })).rejects.toMatchObject({
      details: ["prorationDate: must lie in the current period, within the last hour and not in the future"],
    });
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toEqual(before);
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toHaveLength(1);
  });

  it("refuses a subscription whose cancellation is scheduled, or cancelled (409)", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture);
    const gold = await monthly(fixture, 999_00);
    await cancelSubscription(fixture.deps, mutating(), subscription._id);
    await expect(changePlan(fixture.deps, mutating(), subscription._id, { priceId: gold._id, prorate: "now" })).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    const trial = await subscribed(fixture, 499_00, 7);
    await cancelSubscription(fixture.deps, mutating(), trial.subscription._id);
    await expect(changePlan(fixture.deps, mutating(), trial.subscription._id, { priceId: gold._id, prorate: "at_period_end" })).rejects.toMatchObject({
      code: "INVALID_STATE_TRANSITION",
    });
  });

  it("answers a retry with the same key as the first call did, invoicing once", async () => {
    const fixture = await billingFixture();
    const { subscription } = await subscribed(fixture);
    const gold = await monthly(fixture, 999_00);
    fixture.time.set(at(7));
    const key = mutating(undefined, undefined, "change-plan-key-000001");
    const first = await changePlan(fixture.deps, key, subscription._id, { priceId: gold._id, prorate: "now" });
    const again = await changePlan(fixture.deps, key, subscription._id, { priceId: gold._id, prorate: "now" });
    expect(again.invoice?._id).toBe(first.invoice?._id);
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toHaveLength(2);
  });
});
