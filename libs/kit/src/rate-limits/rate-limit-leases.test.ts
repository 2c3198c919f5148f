import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEmbeddedStore } from "@bayad/store";
import { createRateLimiter, type RateLimitCharge, type RateLimiter } from "./rate-limiter.js";
import { createRateLimitLeases } from "./rate-limit-leases.js";

/** A limiter over a fresh embedded store on a hand-moved clock, counting its trips to the store. */
async function sharedLimiter() {
  const store = createEmbeddedStore();
  let current = Date.parse("2026-03-01T08:00:00.000Z");
  const inner = createRateLimiter(store, { digest: (key) => `d(${key})`, now: () => new Date(current) });
  await store.ensureIndexes();
  const counter = { takes: 0 };
  const limiter: RateLimiter = {
    take: (charges, calls) => {
      counter.takes += 1;
      return inner.take(charges, calls);
    },
    check: inner.check,
    charge: inner.charge,
  };
  const replica = () => createRateLimitLeases(limiter, { now: () => current });
  return {
    replica,
    counter,
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
  };
}

const charges = (limit: number, projectLimit = 1_000): RateLimitCharge[] => [
  { scope: "credential-writes", setting: { limit, windowSeconds: 1 }, key: "prj_a:test:key_1" },
  { scope: "project-writes", setting: { limit: projectLimit, windowSeconds: 1 }, key: "prj_a:test" },
];

describe("rate-limit leases", () => {
  it("never let more than the limit through in any window, across replicas sharing one store", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        // Bursts (no time between calls) and pauses of up to a few slices.
        fc.array(fc.record({ gap: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 150 })), replica: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 200 }),
        async (limit, calls) => {
          const shared = await sharedLimiter();
          const replicas = [shared.replica(), shared.replica(), shared.replica()];
          const admitted: number[] = [];
          for (const call of calls) {
            shared.advance(call.gap);
            const outcome = await replicas[call.replica]!.take("key_1", charges(limit));
            if (outcome.allowed) admitted.push(shared.now());
          }
          for (const t of admitted) {
            expect(admitted.filter((a) => a > t - 1_000 && a <= t).length).toBeLessThanOrEqual(limit);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("serves a busy caller from leases: far fewer trips to the store than calls, none refused under the limit", async () => {
    const shared = await sharedLimiter();
    const replica = shared.replica();
    let refused = 0;
    // 2,000 calls at 400 a second against a limit of 1,000 a second.
    for (let i = 0; i < 2_000; i++) {
      shared.advance(2.5);
      if (!(await replica.take("key_1", charges(1_000, 1_000))).allowed) refused += 1;
    }
    expect(refused).toBe(0);
    expect(shared.counter.takes).toBeLessThan(400);
  });

  it("lets exactly the limit through when concurrent calls arrive at once, asking the store one lease at a time", async () => {
    const shared = await sharedLimiter();
    const replica = shared.replica();
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => replica.take("key_1", charges(10))));
    expect(outcomes.filter((outcome) => outcome.allowed)).toHaveLength(10);
    const refusals = outcomes.filter((outcome) => !outcome.allowed);
    expect(refusals).toHaveLength(40);
    expect(refusals.every((outcome) => !outcome.allowed && outcome.retryAfterSeconds === 2)).toBe(true);
    expect(shared.counter.takes).toBeLessThan(20);
  });

  it("hands out what a lease holds only within the slice it was counted in", async () => {
    const shared = await sharedLimiter();
    const replica = shared.replica();
    for (let i = 0; i < 4; i++) await replica.take("key_1", charges(100));
    // The 4th call leased 4 (the calls asked for in this slice so far): 3 are left ...
    const takes = shared.counter.takes;
    expect((await replica.take("key_1", charges(100))).allowed).toBe(true);
    expect(shared.counter.takes).toBe(takes);
    // ... until the slice (34 ms) ends: then the store counts the call again, in its own slice.
    shared.advance(40);
    expect((await replica.take("key_1", charges(100))).allowed).toBe(true);
    expect(shared.counter.takes).toBe(takes + 1);
  });

  it("keeps a refusal until the full limit has room again, then asks the store", async () => {
    const shared = await sharedLimiter();
    const replica = shared.replica();
    for (let i = 0; i < 3; i++) expect((await replica.take("key_1", charges(3))).allowed).toBe(true);
    const refused = await replica.take("key_1", charges(3));
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.limits[0]).toMatchObject({ scope: "credential-writes", remaining: 0 });
    const takes = shared.counter.takes;
    shared.advance(500);
    expect((await replica.take("key_1", charges(3))).allowed).toBe(false);
    expect(shared.counter.takes).toBe(takes);
    // The calls were counted in the 34 ms slice holding the start: free again within 1.034 s.
    shared.advance(534);
    expect((await replica.take("key_1", charges(3))).allowed).toBe(true);
  });

  it("reports the calls a lease still holds as remaining", async () => {
    const shared = await sharedLimiter();
    const replica = shared.replica();
    const first = await replica.take("key_1", charges(100, 500));
    expect(first.limits.map((limit) => limit.remaining)).toEqual([99, 499]);
    // Busy within one slice: the next lease is larger, and what it holds is still the caller's.
    for (let i = 0; i < 10; i++) await replica.take("key_1", charges(100, 500));
    const last = await replica.take("key_1", charges(100, 500));
    expect(last.limits.map((limit) => limit.remaining)).toEqual([88, 488]);
  });
});
