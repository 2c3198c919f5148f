import { describe, expect, it } from "vitest";
import { billingFixture, plan, subscribe } from "../test-support/billing-fixture.js";

describe("subscriptions repository: markStatusChecked", () => {
  it("writes over the version the subscription was read at, and refuses once it moved past it", async () => {
    const { deps, store } = await billingFixture();
    const subscription = await subscribe(deps, (await plan(deps))._id);
    const at = deps.now();

    expect(await store.transaction((session) => deps.subscriptions.markStatusChecked(subscription, at, session))).toBe(true);
    const marked = await deps.subscriptions.findByIdUnscoped(subscription._id);
    // Nothing else changes, the version included: only a conflict with another writer is wanted.
    expect(marked).toEqual({ ...subscription, statusCheckedAt: at });

    await deps.subscriptions.collection.updateOne({ _id: subscription._id }, { $inc: { aggregateVersion: 1 } });
    const later = new Date(at.getTime() + 1);
    expect(await store.transaction((session) => deps.subscriptions.markStatusChecked(subscription, later, session))).toBe(false);
    expect(await deps.subscriptions.findByIdUnscoped(subscription._id)).toMatchObject({
      statusCheckedAt: at,
      aggregateVersion: subscription.aggregateVersion + 1,
    });
  });
});
