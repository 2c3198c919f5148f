import { describe, expect, it } from "vitest";
import {
  billingFixture,
  caller,
  eventTypes,
  mutating,
  periodNumbers,
  plan,
  subscribe,
  T0,
  WEEK_MS,
} from "../test-support/billing-fixture.js";
import { advanceSubscription, cancelSubscription, createSubscription, getSubscription, listSubscriptionInvoices } from "./subscriptions.js";

describe("createSubscription", () => {
  it("starts pending, with period 1 from now and its invoice open on a payment page", async () => {
    const fixture = await billingFixture();
    const weekly = await plan(fixture.deps);
    const subscription = await subscribe(fixture.deps, weekly._id);

    expect(subscription).toMatchObject({
      status: "pending",
      planId: weekly._id,
      customerId: "cus_123",
      amountMinor: 49_900,
      cyclesBilled: 1,
      cancelAtPeriodEnd: false,
      currentPeriodStart: T0,
      currentPeriodEnd: new Date(T0.getTime() + WEEK_MS),
    });
    expect(subscription._id).toMatch(/^sub_[A-Za-z0-9]{24}$/);
    const invoices = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: "open",
      periodNumber: 1,
      periodStart: T0,
      periodEnd: new Date(T0.getTime() + WEEK_MS),
      amountMinor: 49_900,
    });
    expect(invoices[0]!.hostedInvoiceUrl).toMatch(/^\/sandbox\/invoices\/inv_[A-Za-z0-9]{24}\?token=.+$/);
    expect(await eventTypes(fixture, subscription._id)).toEqual(["billing.subscription.created"]);
    expect(await eventTypes(fixture, invoices[0]!._id)).toEqual(["billing.invoice.draft", "billing.invoice.open"]);
  });

  it("returns the same subscription for a repeated Idempotency-Key and bills it once", async () => {
    const { deps } = await billingFixture();
    const weekly = await plan(deps);
    const input = { customerId: "cus_1", referenceId: "member-idem", priceId: weekly._id };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => createSubscription(deps, mutating("prj_a", "test", "sub-key-0000000001"), input)),
    );
    expect(new Set(results.map((subscription) => subscription._id)).size).toBe(1);
    expect(await deps.subscriptions.collection.count({})).toBe(1);
    expect(await deps.invoices.collection.count({})).toBe(1);
  });

  it("answers 404 naming priceId for an unknown plan or another project's", async () => {
    const fixture = await billingFixture();
    const others = await plan(fixture.deps, { projectId: "prj_b" });
    for (const priceId of ["plan_unknown", others._id]) {
      await expect(subscribe(fixture.deps, priceId)).rejects.toMatchObject({
        code: "RESOURCE_NOT_FOUND",
        details: [expect.stringMatching(/^priceId:/)],
      });
    }
    expect(await fixture.deps.subscriptions.collection.count({})).toBe(0);
  });

  it("refuses a second subscription with the same referenceId and writes nothing", async () => {
    const fixture = await billingFixture();
    const weekly = await plan(fixture.deps);
    const input = { customerId: "cus_1", referenceId: "member-dup", priceId: weekly._id };
    await createSubscription(fixture.deps, mutating(), input);
    const eventsBefore = await fixture.outbox.count({});
    await expect(createSubscription(fixture.deps, mutating(), input)).rejects.toMatchObject({
      code: "RESOURCE_ALREADY_EXISTS",
      details: [expect.stringMatching(/^referenceId:/)],
    });
    expect(await fixture.deps.subscriptions.collection.count({})).toBe(1);
    expect(await fixture.deps.invoices.collection.count({})).toBe(1);
    expect(await fixture.outbox.count({})).toBe(eventsBefore);
  });

  it("answers PROVIDER_NOT_CONFIGURED in live mode before writing anything", async () => {
    const fixture = await billingFixture();
    const live = await plan(fixture.deps);
    await fixture.deps.plans.collection.updateOne({ _id: live._id }, { $set: { environment: "live" } });
    await expect(
      createSubscription(fixture.deps, mutating("prj_a", "live"), { customerId: "cus_1", referenceId: "m", priceId: live._id }),
    ).rejects.toMatchObject({ code: "PROVIDER_NOT_CONFIGURED" });
    expect(await fixture.deps.subscriptions.collection.count({})).toBe(0);
  });
});

describe("getSubscription and listSubscriptionInvoices", () => {
  it("answer 404 for another project's subscription", async () => {
    const { deps } = await billingFixture();
    const subscription = await subscribe(deps, (await plan(deps))._id);
    await expect(getSubscription(deps, caller("prj_b"), subscription._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(listSubscriptionInvoices(deps, caller("prj_b"), subscription._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(listSubscriptionInvoices(deps, caller(), "sub_unknown")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });
});

describe("cancelSubscription", () => {
  it("schedules the cancellation for the period end, keeping the status; again is a no-op", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const scheduled = await cancelSubscription(fixture.deps, mutating(), subscription._id);
    expect(scheduled).toMatchObject({ status: "pending", cancelAtPeriodEnd: true, aggregateVersion: 2 });
    const again = await cancelSubscription(fixture.deps, mutating(), subscription._id);
    expect(again).toMatchObject({ status: "pending", cancelAtPeriodEnd: true, aggregateVersion: 2 });
    expect(await eventTypes(fixture, subscription._id)).toEqual([
      "billing.subscription.created",
      "billing.subscription.cancellation_scheduled",
    ]);
  });

  it("answers 404 for another project's subscription and 409 once cancelled", async () => {
    const { deps } = await billingFixture();
    const subscription = await subscribe(deps, (await plan(deps))._id);
    await expect(cancelSubscription(deps, mutating("prj_b"), subscription._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await cancelSubscription(deps, mutating(), subscription._id);
    expect((await advanceSubscription(deps, mutating(), subscription._id)).status).toBe("cancelled");
    await expect(cancelSubscription(deps, mutating(), subscription._id)).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });
});

describe("advanceSubscription", () => {
  it("closes the period now and bills the next one from now", async () => {
    const fixture = await billingFixture();
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const later = new Date(T0.getTime() + 2 * 24 * 3600 * 1000);
    fixture.time.set(later);
    const advanced = await advanceSubscription(fixture.deps, mutating(), subscription._id);
    expect(advanced).toMatchObject({
      cyclesBilled: 2,
      currentPeriodStart: later,
      currentPeriodEnd: new Date(later.getTime() + WEEK_MS),
      status: "past_due",
    });
    expect(await periodNumbers(fixture.deps, subscription._id)).toEqual([1, 2]);
    const [first, second] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(first).toMatchObject({ status: "past_due" });
    expect(second).toMatchObject({ status: "open", periodStart: later, periodEnd: new Date(later.getTime() + WEEK_MS) });
  });

  it("is a test-mode helper only", async () => {
    const { deps } = await billingFixture();
    const subscription = await subscribe(deps, (await plan(deps))._id);
    await expect(advanceSubscription(deps, mutating("prj_a", "live"), subscription._id)).rejects.toMatchObject({ code: "TEST_MODE_ONLY" });
  });
});
