import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EventSchema, PlanInterval } from "@bayad/proto";
import { billingFixture, caller, mutating, T0 } from "../test-support/billing-fixture.js";
import { createPlan, getPlan, listPlans } from "./plans.js";

const gold = { name: "Gold", amountMinor: 49_900, interval: "monthly" as const };

describe("createPlan", () => {
  it("creates a plan with the defaults and announces it with plan.created", async () => {
    const fixture = await billingFixture();
    const plan = await createPlan(fixture.deps, mutating(), { ...gold, metadata: { tier: "gold" } });

    expect(plan).toMatchObject({ currency: "PHP", intervalCount: 1, cycleCount: 0, interval: "monthly", createdAt: T0 });
    expect(plan._id).toMatch(/^plan_[A-Za-z0-9]{24}$/);
    const stored = await fixture.outbox.find({});
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ subject: "bayad.events.billing.plan.created", resourceId: plan._id, aggregateVersion: 1 });
    const event = fromBinary(EventSchema, Buffer.from(stored[0]!.payload, "base64"));
    expect(event.snapshot.case).toBe("plan");
    if (event.snapshot.case === "plan") {
      expect(event.snapshot.value).toMatchObject({ amount: 49_900n, interval: PlanInterval.MONTHLY, metadata: { tier: "gold" } });
    }
  });

  it("keeps the interval count and cycle count it is given", async () => {
    const { deps } = await billingFixture();
    const plan = await createPlan(deps, mutating(), { ...gold, interval: "weekly", intervalCount: 2, cycleCount: 6 });
    expect(plan).toMatchObject({ interval: "weekly", intervalCount: 2, cycleCount: 6 });
  });

  it("returns the same plan for a repeated Idempotency-Key, also under concurrency", async () => {
    const fixture = await billingFixture();
    const first = await createPlan(fixture.deps, mutating("prj_a", "test", "plan-key-000000001"), gold);
    const again = await createPlan(fixture.deps, mutating("prj_a", "test", "plan-key-000000001"), gold);
    expect(again._id).toBe(first._id);
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => createPlan(fixture.deps, mutating("prj_a", "test", "plan-key-000000002"), gold)),
    );
    expect(new Set(racing.map((plan) => plan._id)).size).toBe(1);
    expect(await fixture.deps.plans.collection.count({})).toBe(2);
    expect(await fixture.outbox.count({})).toBe(2);
  });

  it("refuses a plan without an interval or with another currency", async () => {
    const { deps } = await billingFixture();
    await expect(createPlan(deps, mutating(), { ...gold, interval: undefined })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.stringMatching(/^interval:/)],
    });
    await expect(createPlan(deps, mutating(), { ...gold, currency: "USD" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: [expect.stringMatching(/^currency:/)],
    });
  });
});

describe("listPlans and getPlan", () => {
  it("lists only the caller's project and environment, newest first", async () => {
    const { deps, time } = await billingFixture();
    const older = await createPlan(deps, mutating(), { ...gold, name: "Older" });
    time.set(new Date(T0.getTime() + 1000));
    const newer = await createPlan(deps, mutating(), { ...gold, name: "Newer" });
    await createPlan(deps, mutating("prj_b"), { ...gold, name: "Other project" });
    await createPlan(deps, mutating("prj_a", "live"), { ...gold, name: "Live" });

    expect((await listPlans(deps, caller())).map((plan) => plan._id)).toEqual([newer._id, older._id]);
  });

  it("reads the caller's plan and answers 404 for another project's", async () => {
    const { deps } = await billingFixture();
    const plan = await createPlan(deps, mutating(), gold);
    expect((await getPlan(deps, caller(), plan._id)).name).toBe("Gold");
    await expect(getPlan(deps, caller("prj_b"), plan._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(getPlan(deps, caller("prj_a", "live"), plan._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(getPlan(deps, caller(), "plan_missing")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
  });
});
