import { describe, expect, it } from "vitest";
import { createEmbeddedStore } from "./embedded/embedded-store.js";
import { createLease } from "./lease.js";

const at = (seconds: number) => new Date(Date.UTC(2027, 0, 1, 0, 0, seconds));

describe("lease", () => {
  it("has one holder at a time, even among concurrent takers", async () => {
    const lease = createLease(createEmbeddedStore(), "billing-clock");
    const takers = Array.from({ length: 20 }, (_, i) => `worker-${i}`);
    const won = await Promise.all(takers.map((holder) => lease.acquire(holder, at(0), 30_000)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const holder = takers[won.indexOf(true)]!;
    // The holder renews; everyone else keeps losing until it expires.
    expect(await lease.acquire(holder, at(10), 30_000)).toBe(true);
    for (const other of takers.filter((taker) => taker !== holder)) {
      expect(await lease.acquire(other, at(20), 30_000)).toBe(false);
    }
  });

  it("lets another holder take over a lease whose holder stopped renewing", async () => {
    const lease = createLease(createEmbeddedStore(), "billing-clock");
    expect(await lease.acquire("crashed", at(0), 30_000)).toBe(true);
    expect(await lease.acquire("successor", at(29), 30_000)).toBe(false);
    expect(await lease.acquire("successor", at(30), 30_000)).toBe(true);
    // The old holder, back from a pause, does not get it back while the successor renews.
    expect(await lease.acquire("crashed", at(31), 30_000)).toBe(false);
  });

  it("is free for another holder once released", async () => {
    const lease = createLease(createEmbeddedStore(), "billing-clock");
    expect(await lease.acquire("a", at(0), 30_000)).toBe(true);
    await lease.release("b");
    expect(await lease.acquire("b", at(1), 30_000)).toBe(false);
    await lease.release("a");
    expect(await lease.acquire("b", at(1), 30_000)).toBe(true);
  });
});
