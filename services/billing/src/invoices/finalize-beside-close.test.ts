import { describe, expect, it } from "vitest";
import type { Session, Store } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { closePeriod } from "../subscriptions/close-period.js";
import type { SubscriptionRecord } from "../subscriptions/subscription.js";
import { getSubscription, listSubscriptionInvoices } from "../subscriptions/subscriptions.js";
import { billingFixture, caller, expectOneEventPerChange, flakyProvider, plan, subscribe, T0, WEEK_MS } from "../test-support/billing-fixture.js";
import { finalizeBilledInvoice } from "./invoices.js";

/**
 * Billing deps whose first transaction reads the subscription as `snapshot`, in each of its runs:
 * what MongoDB's snapshot isolation gives a transaction that began before another committed a
 * change to it. The embedded store runs transactions one at a time, so this is how the
 * interleaving is made deterministic here. A later transaction (a retry after a conflict) reads
 * the store as it is.
 */
function firstTransactionReading(deps: BillingDeps, snapshot: SubscriptionRecord): { deps: BillingDeps; served: () => number } {
  const staleSessions = new WeakSet<Session>();
  let transactions = 0;
  let served = 0;
  const store: Store = {
    ...deps.store,
    transaction: (work, options) => {
      const stale = ++transactions === 1;
      return deps.store.transaction((session) => {
        if (stale) staleSessions.add(session);
        return work(session);
      }, options);
    },
  };
  const findByIdUnscoped = (subscriptionId: string, session?: Session) => {
    if (session === undefined || !staleSessions.has(session)) return deps.subscriptions.findByIdUnscoped(subscriptionId, session);
    served += 1;
    return Promise.resolve(snapshot);
  };
  return { deps: { ...deps, store, subscriptions: { ...deps.subscriptions, findByIdUnscoped } }, served: () => served };
}

describe("finalizing an invoice beside the close of its period", () => {
  it("does not leave the invoice open when the period closed after finalize read the subscription: it conflicts and decides again", async () => {
    const { provider, control } = flakyProvider();
    const fixture = await billingFixture({ provider });
    control.silent = true; // the first finalize fails, leaving period 1's invoice a draft
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const [draft] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(draft).toMatchObject({ periodNumber: 1, status: "draft" });

    // Finalize's transaction takes its snapshot of the subscription (period 1 still current)…
    const beforeClose = await fixture.deps.subscriptions.findByIdUnscoped(subscription._id);
    if (beforeClose === null || draft === undefined) throw new Error("the subscription and its invoice were just created");
    // …then the period closes, reading the invoice as a draft (not yet due) and writing the subscription.
    fixture.time.set(new Date(T0.getTime() + WEEK_MS));
    await closePeriod(fixture.deps, subscription, "now");
    expect(await listSubscriptionInvoices(fixture.deps, caller(), subscription._id)).toMatchObject([{ status: "draft" }, { status: "draft" }]);

    control.silent = false;
    const stale = firstTransactionReading(fixture.deps, beforeClose);
    await finalizeBilledInvoice(stale.deps, draft);

    expect(stale.served()).toBeGreaterThan(0);
    // As in the serial order close → finalize: the closed period's invoice is due, the subscription past due.
    const [first] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(first).toMatchObject({ periodNumber: 1, status: "past_due" });
    expect(await getSubscription(fixture.deps, caller(), subscription._id)).toMatchObject({ status: "past_due", cyclesBilled: 2 });
    await expectOneEventPerChange(fixture);
  });

  it("writes the subscription when it opens an invoice of a period still current, so a close beside it conflicts", async () => {
    const { provider, control } = flakyProvider();
    const fixture = await billingFixture({ provider });
    control.silent = true;
    const subscription = await subscribe(fixture.deps, (await plan(fixture.deps))._id);
    const [draft] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    if (draft === undefined) throw new Error("the subscription was billed a draft");

    control.silent = false;
    await finalizeBilledInvoice(fixture.deps, draft);

    const [opened] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(opened).toMatchObject({ status: "open" });
    const after = await fixture.deps.subscriptions.findByIdUnscoped(subscription._id);
    expect(after).toMatchObject({ status: "pending", aggregateVersion: subscription.aggregateVersion, statusCheckedAt: fixture.deps.now() });
  });
});
