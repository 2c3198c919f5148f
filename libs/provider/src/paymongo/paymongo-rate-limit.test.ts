import { describe, expect, it } from "vitest";
import { createPaymongoRateLimit, type RateLimitClock } from "./paymongo-rate-limit.js";

/** A clock that only moves when the limiter waits: every wait moves it by exactly that much. */
function fakeClock(): RateLimitClock & { waits: number[] } {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
}

describe("createPaymongoRateLimit", () => {
  it("lets no second hold more than the limit of one key's requests", async () => {
    const clock = fakeClock();
    const limit = createPaymongoRateLimit(4, clock);
    const admitted: number[] = [];
    for (let i = 0; i < 10; i++) {
      await limit.take("key-a");
      admitted.push(clock.now());
    }
    // Any five in a row span at least a second, and the first four went at once.
    for (let i = 0; i + 4 < admitted.length; i++) expect(admitted[i + 4]! - admitted[i]!).toBeGreaterThanOrEqual(1000);
    expect(admitted.slice(0, 4)).toEqual(Array(4).fill(admitted[0]));
  });

  it("does not hold one key's requests for another key's", async () => {
    const clock = fakeClock();
    const limit = createPaymongoRateLimit(4, clock);
    for (let i = 0; i < 4; i++) await limit.take("key-a");
    for (let i = 0; i < 4; i++) await limit.take("key-b");
    expect(clock.waits).toEqual([]);
    await limit.take("key-a");
    expect(clock.waits).toHaveLength(1);
  });

  it("holds every request of a key until the wait PayMongo asked for has passed", async () => {
    const clock = fakeClock();
    const limit = createPaymongoRateLimit(100, clock);
    const heldUntil = clock.now() + 300;
    limit.holdFor("key-a", 300);
    await limit.take("key-a");
    expect(clock.now()).toBeGreaterThanOrEqual(heldUntil);
    // Another key is not held.
    const before = clock.now();
    limit.holdFor("key-a", 300);
    await limit.take("key-b");
    expect(clock.now()).toBe(before);
  });
});
