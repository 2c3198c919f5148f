import { afterEach, describe, expect, it } from "vitest";
import {
  billingFixture,
  caller,
  mutating,
  DAY_MS,
  eventTypes,
  expectOneEventPerChange,
  flakyProvider,
  periodNumbers,
  plan,
  subscribe,
  T0,
  WEEK_MS,
  type BillingFixture,
} from "../test-support/billing-fixture.js";
import { simulateInvoiceOutcome } from "../invoices/invoices.js";
import { advanceSubscription, cancelSubscription, getSubscription, listSubscriptionInvoices } from "../subscriptions/subscriptions.js";
import { startBillingClock, type BillingClock } from "./billing-clock.js";

const after = (ms: number) => new Date(T0.getTime() + ms);
const clocks: BillingClock[] = [];

/** A clock that only ticks when told (its timer interval is far beyond any test). */
function clockAt(
  fixture: BillingFixture,
  now: () => Date,
  options: { holderId?: string; leaseMs?: number; batchSize?: number } = {},
) {
  const clock = startBillingClock({
    deps: fixture.deps,
    intervalMs: 3_600_000,
    leaseMs: options.leaseMs ?? 30_000,
    holderId: options.holderId ?? "clock-a",
    now,
    batchSize: options.batchSize,
  });
  clocks.push(clock);
  return clock;
}

afterEach(async () => {
  await Promise.all(clocks.splice(0).map((clock) => clock.stop()));
});

describe("the billing clock", () => {
  it("catches up after downtime: 3.5 periods later, periods 2, 3 and 4 are billed once each", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const clock = clockAt(fixture, () => after(3.5 * WEEK_MS));

    expect(await clock.tick()).toBe(3);
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodNumber, invoice.status, invoice.periodStart.getTime()])).toEqual([
      [1, "past_due", T0.getTime()],
      [2, "past_due", after(WEEK_MS).getTime()],
      [3, "past_due", after(2 * WEEK_MS).getTime()],
      [4, "open", after(3 * WEEK_MS).getTime()],
    ]);
    // Periods are closed first, then the dunning steps due by the same time: invoice 1's last
    // reminder (7 days after its due date, at 2 weeks) was due, so its final action was taken.
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({
      status: "unpaid",
      cyclesBilled: 4,
      currentPeriodStart: after(3 * WEEK_MS),
      currentPeriodEnd: after(4 * WEEK_MS),
    });

    expect(await clock.tick()).toBe(0);
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1, 2, 3, 4]);
    await expectOneEventPerChange(fixture);
  });

  it("keeps monthly periods on their anchor: Jan 31 → Feb 28 → Mar 31", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps, { interval: "monthly" }))._id);
    const clock = clockAt(fixture, () => new Date("2027-04-01T00:00:00.000Z"));
    expect(await clock.tick()).toBe(2);
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodStart.toISOString(), invoice.periodEnd.toISOString()])).toEqual([
      ["2027-01-31T04:00:00.000Z", "2027-02-28T04:00:00.000Z"],
      ["2027-02-28T04:00:00.000Z", "2027-03-31T04:00:00.000Z"],
      ["2027-03-31T04:00:00.000Z", "2027-04-30T04:00:00.000Z"],
    ]);
  });

  it("ends a subscription whose cancellation was scheduled at its period end, and not before", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const [invoice] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    await simulateInvoiceOutcome(fixture.deps, mutating(), invoice!._id, "pay");
    await cancelSubscription(fixture.deps, mutating(), subscription._id);
    let now = after(WEEK_MS - 1);
    const clock = clockAt(fixture, () => now);

    expect(await clock.tick()).toBe(0);
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ status: "active", cancelAtPeriodEnd: true });

    now = after(WEEK_MS);
    expect(await clock.tick()).toBe(1);
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ status: "cancelled", endedAt: after(WEEK_MS) });
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1]);
    expect((await eventTypes(fixture, subscription._id)).at(-1)).toBe("billing.subscription.cancelled");

    now = after(10 * WEEK_MS);
    expect(await clock.tick()).toBe(0);
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1]);
  });

  it("cancels a pending subscription at its period end too, voiding its unpaid invoice", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    expect(await cancelSubscription(fixture.deps, mutating(), subscription._id)).toMatchObject({ status: "pending", cancelAtPeriodEnd: true });
    expect(await clockAt(fixture, () => after(WEEK_MS)).tick()).toBe(1);
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ status: "cancelled" });
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => invoice.status)).toEqual(["void"]);
  });

  it("finalizes drafts left behind, also one whose period has closed meanwhile (which is then past due)", async () => {
    const { provider, control } = flakyProvider();
    const fixture = await billingFixture({ provider });
    control.silent = true;
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    await advanceSubscription(fixture.deps, mutating(), subscription._id);
    const drafts = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(drafts.map((invoice) => invoice.status)).toEqual(["draft", "draft"]);
    expect((await getSubscription(fixture.deps, caller(), subscription._id)).status).toBe("pending");

    control.silent = false;
    await clockAt(fixture, () => after(DAY_MS)).tick();
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => invoice.status)).toEqual(["past_due", "open"]);
    expect(invoices.every((invoice) => invoice.hostedInvoiceUrl?.startsWith("/sandbox/invoices/"))).toBe(true);
    expect((await getSubscription(fixture.deps, caller(), subscription._id)).status).toBe("past_due");
    await expectOneEventPerChange(fixture);
  });
});

describe("the billing clock's lease", () => {
  it("lets only one of two clocks bill in a round", async () => {
    const fixture = await billingFixture();
    const weekly = await plan(fixture.deps);
    await Promise.all(Array.from({ length: 3 }, () => subscribe(fixture.deps, weekly._id)));
    const now = () => after(WEEK_MS);
    const results = await Promise.all([
      clockAt(fixture, now, { holderId: "clock-a" }).tick(),
      clockAt(fixture, now, { holderId: "clock-b" }).tick(),
    ]);
    expect(results.sort()).toEqual([0, 3]);
  });

  it("is taken over once its holder stops renewing it, and not before", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    // Clock A takes the lease just before the period ends, then crashes (never ticks again).
    await clockAt(fixture, () => after(WEEK_MS - 10_000), { holderId: "clock-a" }).tick();
    let now = after(WEEK_MS);
    const successor = clockAt(fixture, () => now, { holderId: "clock-b" });

    expect(await successor.tick()).toBe(0);
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1]);
    now = after(WEEK_MS + 20_000);
    expect(await successor.tick()).toBe(1);
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1, 2]);
  });

  it("is given up when its clock stops, so another clock can take over at once", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    // Clock A takes a 30 s lease just before the period ends, then stops.
    const first = clockAt(fixture, () => after(WEEK_MS - 10_000), { holderId: "clock-a", leaseMs: 30_000 });
    expect(await first.tick()).toBe(0);
    await first.stop();
    expect(await first.tick()).toBe(0);
    // Clock B ticks while A's lease would still run: only the release lets it bill now.
    expect(await clockAt(fixture, () => after(WEEK_MS), { holderId: "clock-b" }).tick()).toBe(1);
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1, 2]);
  });
});

describe("two billing workers running at once", () => {
  it("never bill a period twice, even when both believe they hold the lease", async () => {
    const fixture = await billingFixture();
    const weekly = await plan(fixture.deps);
    const monthly = await plan(fixture.deps, { interval: "monthly" });
    const subscriptions = await Promise.all(
      Array.from({ length: 12 }, (_, i) => subscribe(fixture.deps, (i % 3 === 0 ? monthly : weekly)._id)),
    );
    const now = () => after(10 * WEEK_MS + DAY_MS);
    // A lease of 0 ms has lapsed as soon as it is taken, so both clocks always get it: only the
    // version checks and the one-invoice-per-period index stand between them.
    const a = clockAt(fixture, now, { holderId: "clock-a", leaseMs: 0, batchSize: 3 });
    const b = clockAt(fixture, now, { holderId: "clock-b", leaseMs: 0, batchSize: 3 });
    // Small batches make the clocks interleave across several rounds of queries.
    const rounds = await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);

    const weeklyPeriods = Array.from({ length: 11 }, (_, i) => i + 1);
    const monthlyPeriods = [1, 2, 3];
    expect(rounds.reduce((sum, count) => sum + count, 0)).toBe(8 * 10 + 4 * 2);
    for (const [i, subscription] of subscriptions.entries()) {
      expect(await periodNumbers(fixture.deps, subscription._id)).toEqual(i % 3 === 0 ? monthlyPeriods : weeklyPeriods);
    }
    await expectOneEventPerChange(fixture);
  });
});
