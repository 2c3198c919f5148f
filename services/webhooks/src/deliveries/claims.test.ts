import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@bayad/store";
import { createWebhookDeliveriesRepository, type WebhookDeliveriesRepository } from "./webhook-deliveries-repository.js";
import { createTestStore } from "@bayad/store/testing";

/** The claim on a due attempt is the lease that keeps two dispatchers from making it at once. */
describe("claiming due attempts", () => {
  let store: Store;
  let deliveries: WebhookDeliveriesRepository;
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

  beforeEach(async () => {
    store = createTestStore();
    deliveries = createWebhookDeliveriesRepository(store);
    await store.ensureIndexes();
  });
  afterEach(() => store.close());

  const schedule = (attempt: number, scheduledAt: Date, eventId = "evt_1") =>
    store.transaction((session) =>
      deliveries.schedule(
        { webhookEndpointId: "we_1", eventId, eventType: "checkout.paid", projectId: "prj_1", environment: "test", attempt, redelivery: false, scheduledAt },
        at(0),
        session,
      ),
    );

  it("hands a due attempt to one claimant until its claim runs out, then to the next, whose outcome alone is recorded", async () => {
    const scheduled = await schedule(1, at(0));
    const first = await deliveries.claimDue(at(1_000), at(31_000));
    expect(first).toMatchObject({ _id: scheduled._id, claimedUntil: at(31_000) });
    // Held: nobody else gets it, however often they ask.
    expect(await deliveries.claimDue(at(2_000), at(32_000))).toBeNull();
    expect(await deliveries.claimDue(at(30_999), at(60_999))).toBeNull();
    // Its holder crashed: once the claim has run out, the attempt is due again, under a new claim.
    const second = await deliveries.claimDue(at(31_001), at(61_001));
    expect(second).toMatchObject({ _id: scheduled._id });
    expect(second!.claimToken).not.toBe(first!.claimToken);
    // The first holder comes back late: its outcome is not recorded; the current holder's is.
    expect(await store.transaction((session) => deliveries.finish(first!, { status: "succeeded" }, session))).toBe(false);
    expect(await store.transaction((session) => deliveries.finish(second!, { status: "failed", error: "HTTP 500" }, session))).toBe(true);
    expect(await deliveries.claimDue(at(100_000), at(130_000))).toBeNull();
  });

  it("hands out the longest-due attempt first, and none before it is due", async () => {
    await schedule(1, at(5_000), "evt_late");
    const early = await schedule(1, at(1_000), "evt_early");
    expect(await deliveries.claimDue(at(500), at(30_500))).toBeNull();
    expect((await deliveries.claimDue(at(6_000), at(36_000)))!._id).toBe(early._id);
    expect((await deliveries.claimDue(at(6_000), at(36_000)))!.eventId).toBe("evt_late");
  });

  it("schedules one attempt number of an event to an endpoint once", async () => {
    await schedule(1, at(0));
    const again = await schedule(1, at(0)).catch((error: unknown) => error);
    expect(deliveries.isAttemptTaken(again)).toBe(true);
    expect(await deliveries.highestAttempt("we_1", "evt_1")).toBe(1);
  });
});
