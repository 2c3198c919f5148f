import { describe, expect, it } from "vitest";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { keyedDigest } from "../secrets.js";
import { createRateLimiter } from "./rate-limiter.js";

const SECRET = "test-secret-test-secret-test-secret-0001";

/** A clock tests move by hand. */
function createClock(start = new Date("2026-03-01T08:00:00.000Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
  };
}

async function limiterWithClock(start?: Date) {
  const store = createEmbeddedStore();
  const clock = createClock(start);
  const limiter = createRateLimiter(store, { digest: (key) => keyedDigest(SECRET, "rate-limit", key), now: clock.now });
  await store.ensureIndexes();
  return { store, clock, limiter };
}

describe("rate limiter", () => {
  it("counts in a sliding window: Retry-After runs until the oldest counted slice has left it", async () => {
    const { store, clock, limiter } = await limiterWithClock();
    const charge = () => limiter.charge([{ scope: "t", setting: { limit: 2, windowSeconds: 60 }, key: "k" }]);

    clock.advance(15_500);
    await charge();
    await charge();
    // Counted in 2-second slices: the calls at 08:00:15.5 count until 08:01:16.
    await expect(charge()).rejects.toMatchObject({ code: "RATE_LIMITED", headers: { "Retry-After": "61" } });
    clock.advance(60_499);
    await expect(charge()).rejects.toMatchObject({ headers: { "Retry-After": "1" } });
    clock.advance(1);
    await charge();
    // The counters hold the key only as its digest.
    const stored = await store.collection<{ _id: string }>({ name: "rate_limits" }).find({});
    expect(stored.map((record) => record._id)).toEqual([`t:${keyedDigest(SECRET, "rate-limit", "k")}`]);
  });

  it("counts as many calls as every limit has room for, and says where each limit stands", async () => {
    const { clock, limiter } = await limiterWithClock();
    const small = { scope: "small", setting: { limit: 5, windowSeconds: 60 }, key: "k" };
    const large = { scope: "large", setting: { limit: 100, windowSeconds: 60 }, key: "k" };
    const start = clock.now().getTime();

    const first = await limiter.take([small, large], 3);
    expect(first).toMatchObject({ allowed: true, calls: 3 });
    expect(first.limits.map((limit) => limit.remaining)).toEqual([2, 97]);
    // The calls leave the window with their 2-second slice.
    expect(first.limits.map((limit) => limit.resetAt)).toEqual([start + 62_000, start + 62_000]);

    clock.advance(10_000);
    const second = await limiter.take([small, large], 10);
    expect(second).toMatchObject({ allowed: true, calls: 2 });
    expect(second.limits.map((limit) => limit.remaining)).toEqual([0, 95]);
    // A full limit resets when it has room again.
    expect(second.limits[0]!.resetAt).toBe(start + 62_000);

    const refused = await limiter.take([small, large], 1);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 52 });
    // Counted by none: the large limit still has 95.
    expect(refused.limits.map((limit) => limit.remaining)).toEqual([0, 95]);
  });

  it("checks where a limit stands without counting anything, refusing once it is full", async () => {
    const { clock, limiter } = await limiterWithClock();
    const budget = { scope: "budget", setting: { limit: 2, windowSeconds: 60 }, key: "all" };

    for (let i = 0; i < 3; i++) expect(await limiter.check([budget])).toMatchObject({ allowed: true, calls: 0, limits: [{ remaining: 2 }] });
    await limiter.take([budget], 2);
    expect(await limiter.check([budget])).toMatchObject({ allowed: false, retryAfterSeconds: 62 });
    clock.advance(62_000);
    expect(await limiter.check([budget])).toMatchObject({ allowed: true, limits: [{ remaining: 2 }] });
  });
});

describe("rate limiter under concurrent calls", () => {
  it("lets exactly the limit through when many calls race for one key", async () => {
    const { limiter } = await limiterWithClock();
    const setting = { limit: 5, windowSeconds: 60 };
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => limiter.charge([{ scope: "t", setting, key: "k" }, { scope: "u", setting: { limit: 100, windowSeconds: 60 }, key: "k" }])),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(5);
    expect(results.filter((result) => result.status === "rejected").map((result) => (result as PromiseRejectedResult).reason.code)).toEqual(Array(15).fill("RATE_LIMITED"));
  });
});

describe("rate limiter durability", () => {
  /** `store`, with the options of every insertOne and updateOne its collections are given. */
  function recordingWrites(store: Store) {
    const options: unknown[] = [];
    const recording = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== "collection") return Reflect.get(target, property, receiver) as unknown;
        return (...args: Parameters<Store["collection"]>) => {
          const collection = target.collection(...args);
          return new Proxy(collection, {
            get(inner, name, innerReceiver) {
              const value = Reflect.get(inner, name, innerReceiver) as unknown;
              if ((name !== "insertOne" && name !== "updateOne") || typeof value !== "function") return value;
              return (...call: unknown[]) => {
                options.push(call[call.length - 1]);
                return (value as (...a: unknown[]) => unknown).apply(inner, call);
              };
            },
          });
        };
      },
    });
    return { recording, options };
  }

  it.each([
    ["flushed", undefined],
    ["deferred", "deferred" as const],
  ])("writes its counts %s when given %s", async (expected, durability) => {
    const store = createEmbeddedStore();
    const { recording, options } = recordingWrites(store);
    const clock = createClock();
    const limiter = createRateLimiter(recording, { digest: (key) => keyedDigest(SECRET, "rate-limit", key), now: clock.now, ...(durability ? { durability } : {}) });
    await store.ensureIndexes();
    const charges = [{ scope: "t", setting: { limit: 10, windowSeconds: 60 }, key: "k" }];

    await limiter.charge(charges);
    await limiter.charge(charges);

    // One insert, then one update.
    expect(options).toEqual([{ durability: expected }, { durability: expected }]);
    await store.close();
  });
});
