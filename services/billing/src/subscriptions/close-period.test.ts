import { describe, expect, it } from "vitest";
import {
  billingFixture,
  caller,
  mutating,
  eventTypes,
  expectOneEventPerChange,
  periodNumbers,
  plan,
  subscribe,
  T0,
  WEEK_MS,
} from "../test-support/billing-fixture.js";
import { closeDuePeriods } from "../clock/billing-clock.js";
import { simulateInvoiceOutcome } from "../invoices/invoices.js";
import { closePeriod } from "./close-period.js";
import { advanceSubscription, cancelSubscription, listSubscriptionInvoices } from "./subscriptions.js";

describe("a plan with cycleCount 3", () => {
  it("bills exactly three invoices through its cycles and then ends; a further advance → 409", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps, { cycleCount: 3 }))._id);
    const pay = async () => {
      const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
      await simulateInvoiceOutcome(fixture.deps, mutating(), invoices.at(-1)!._id, "pay");
    };

    await pay();
    expect(await advanceSubscription(fixture.deps, mutating(), subscription._id)).toMatchObject({ status: "active", cyclesBilled: 2 });
    await pay();
    expect(await advanceSubscription(fixture.deps, mutating(), subscription._id)).toMatchObject({ status: "active", cyclesBilled: 3 });
    await pay();
    const ended = await advanceSubscription(fixture.deps, mutating(), subscription._id);

    expect(ended).toMatchObject({ status: "cancelled", cyclesBilled: 3 });
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => [invoice.periodNumber, invoice.status])).toEqual([
      [1, "paid"],
      [2, "paid"],
      [3, "paid"],
    ]);
    await expect(advanceSubscription(fixture.deps, mutating(), subscription._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    expect(await eventTypes(fixture, subscription._id)).toEqual([
      "billing.subscription.created",
      "billing.subscription.active",
      "billing.subscription.renewed",
      "billing.subscription.renewed",
      "billing.subscription.cancelled",
    ]);
    await expectOneEventPerChange(fixture);
  });

  it("voids what is unpaid when it ends", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps, { cycleCount: 3 }))._id);
    for (let i = 0; i < 3; i++) await advanceSubscription(fixture.deps, mutating(), subscription._id);
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices.map((invoice) => invoice.status)).toEqual(["void", "void", "void"]);
    expect(await eventTypes(fixture, invoices[2]!._id)).toEqual(["billing.invoice.draft", "billing.invoice.open", "billing.invoice.void"]);
    await expectOneEventPerChange(fixture);
  });
});

describe("closePeriod", () => {
  it("moves the period on the anchor and records each change with its event", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const end = subscription.currentPeriodEnd;
    const result = await closePeriod(fixture.deps, subscription, end);
    expect(result.closed).toBe(true);
    expect(result.subscription).toMatchObject({
      status: "past_due",
      cyclesBilled: 2,
      currentPeriodStart: end,
      currentPeriodEnd: new Date(T0.getTime() + 2 * WEEK_MS),
      billingAnchor: T0,
      anchorPeriod: 1,
    });
    expect(result.billed).toMatchObject({ status: "draft", periodNumber: 2, periodStart: end });
    expect(await eventTypes(fixture, subscription._id)).toEqual([
      "billing.subscription.created",
      "billing.subscription.past_due",
      "billing.subscription.renewed",
    ]);
    await expectOneEventPerChange(fixture);
  });

  it("does nothing when given a stale subscription whose period someone else closed", async () => {
    const fixture = await billingFixture();
    const stale = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    await closePeriod(fixture.deps, stale, stale.currentPeriodEnd);
    const eventsBefore = await fixture.outbox.count({});

    const again = await closePeriod(fixture.deps, stale, stale.currentPeriodEnd);
    expect(again).toMatchObject({ closed: false, subscription: { cyclesBilled: 2 } });
    expect(await periodNumbers(fixture.deps, stale._id)).toEqual([1, 2]);
    expect(await fixture.outbox.count({})).toBe(eventsBefore);
  });

  it("decides again from a fresh read when the subscription changed for another reason", async () => {
    const fixture = await billingFixture();
    const stale = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    await cancelSubscription(fixture.deps, mutating(), stale._id);
    const result = await closePeriod(fixture.deps, stale, stale.currentPeriodEnd);
    // The snapshot did not know of the scheduled cancellation; the fresh decision does.
    expect(result).toMatchObject({ closed: true, subscription: { status: "cancelled" } });
    expect(await periodNumbers(fixture.deps, stale._id)).toEqual([1]);
  });
});

describe("concurrent closers, bypassing the clock's lease", () => {
  it("close one period once between two closers holding the same snapshot", async () => {
    const fixture = await billingFixture();
    let subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    for (let round = 0; round < 4; round++) {
      const end = subscription.currentPeriodEnd;
      const results = await Promise.all([
        closePeriod(fixture.deps, subscription, end),
        closePeriod(fixture.deps, subscription, end),
      ]);
      expect(results.filter((result) => result.closed)).toHaveLength(1);
      subscription = results.find((result) => result.closed)!.subscription;
    }
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1, 2, 3, 4, 5]);
    await expectOneEventPerChange(fixture);
  });

  it("catch up many subscriptions several periods behind, billing each period once", async () => {
    const fixture = await billingFixture();
    const weekly = await plan(fixture.deps);
    const subscriptions = await Promise.all(Array.from({ length: 8 }, () => subscribe(fixture.deps, weekly._id)));
    const now = new Date(T0.getTime() + 4.5 * WEEK_MS);

    const closedCounts = await Promise.all(
      subscriptions.flatMap((subscription) => [
        closeDuePeriods(fixture.deps, subscription, now),
        closeDuePeriods(fixture.deps, subscription, now),
        closeDuePeriods(fixture.deps, subscription, now),
      ]),
    );

    expect(closedCounts.reduce((sum, count) => sum + count, 0)).toBe(8 * 4);
    for (const subscription of subscriptions) {
      expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1, 2, 3, 4, 5]);
    }
    await expectOneEventPerChange(fixture);
  });
});

describe("the billing clock racing an advance", () => {
  const startsOf = async (fixture: Awaited<ReturnType<typeof billingFixture>>, subscriptionId: string) =>
    (await fixture.deps.invoices.listForSubscription(subscriptionId)).map((invoice) => invoice.periodStart.getTime());

  it("never starts two periods at one instant, even when the advance comes at the very instant the clock closed", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    fixture.time.set(new Date(T0.getTime() + WEEK_MS));
    // The clock closes period 1 at its end; an advance at that same instant closes period 2.
    expect(await closeDuePeriods(fixture.deps, subscription, fixture.time.now())).toBe(1);
    const advanced = await advanceSubscription(fixture.deps, mutating(), subscription._id);
    expect(advanced.cyclesBilled).toBe(3);
    const starts = await startsOf(fixture, subscription._id);
    expect(starts).toHaveLength(3);
    expect(new Set(starts).size).toBe(3);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    await expectOneEventPerChange(fixture);
  });

  it("closes a due period once when the clock and advances race for it", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    fixture.time.set(new Date(T0.getTime() + WEEK_MS));
    await Promise.all([
      closeDuePeriods(fixture.deps, subscription, fixture.time.now()),
      ...Array.from({ length: 10 }, () => advanceSubscription(fixture.deps, mutating(), subscription._id)),
      closeDuePeriods(fixture.deps, subscription, fixture.time.now()),
    ]);
    const current = (await fixture.deps.subscriptions.findByIdUnscoped(subscription._id))!;
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual(Array.from({ length: current.cyclesBilled }, (_, i) => i + 1));
    const starts = await startsOf(fixture, subscription._id);
    expect(new Set(starts).size).toBe(starts.length);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    await expectOneEventPerChange(fixture);
  });
});
