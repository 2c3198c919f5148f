import { describe, expect, it } from "vitest";
import { AsyncMutex } from "./async-mutex.js";

describe("AsyncMutex", () => {
  it("runs holders one at a time, in the order they asked, and frees the lock after a failure", async () => {
    const mutex = new AsyncMutex();
    const events: string[] = [];
    const holder = (name: string, fail = false) =>
      mutex.runExclusive(async () => {
        events.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`${name} end`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const results = await Promise.allSettled([holder("a"), holder("b", true), holder("c"), mutex.runExclusive(() => "d")]);
    expect(events).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
    expect(results.map((result) => (result.status === "fulfilled" ? result.value : (result.reason as Error).message))).toEqual([
      "a",
      "b failed",
      "c",
      "d",
    ]);
  });

  it("starts work at once when the lock is free, and turns a synchronous throw into a rejection", async () => {
    const mutex = new AsyncMutex();
    let started = false;
    const done = mutex.runExclusive(() => {
      started = true;
      return 1;
    });
    expect(started).toBe(true);
    await expect(done).resolves.toBe(1);
    await expect(
      mutex.runExclusive(() => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    await expect(mutex.runExclusive(() => "free again")).resolves.toBe("free again");
  });
});
