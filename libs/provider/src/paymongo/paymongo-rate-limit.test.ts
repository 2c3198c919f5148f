import { describe, expect, it } from "vitest";
import { createPaymongoRateLimit } from "./paymongo-rate-limit.js";

describe("createPaymongoRateLimit", () => {
  it("lets no second hold more than the limit of one key's requests, and other keys are not held by it", async () => {
    const limit = createPaymongoRateLimit(4);
    const admitted: number[] = [];
    const other: number[] = [];
    await Promise.all([
      ...Array.from({ length: 10 }, () => limit.take("key-a").then(() => admitted.push(Date.now()))),
      ...Array.from({ length: 4 }, () => limit.take("key-b").then(() => other.push(Date.now()))),
    ]);
    expect(admitted).toHaveLength(10);
    // Any five in a row span at least a second.
    for (let i = 0; i + 4 < admitted.length; i++) expect(admitted[i + 4]! - admitted[i]!).toBeGreaterThanOrEqual(1000);
    // key-b's four were let through before key-a's fifth.
    expect(Math.max(...other)).toBeLessThan(admitted[4]!);
  });

  it("holds every request of a key until the wait PayMongo asked for has passed", async () => {
    const limit = createPaymongoRateLimit(100);
    const heldUntil = Date.now() + 300;
    limit.holdFor("key-a", 300);
    await limit.take("key-a");
    expect(Date.now()).toBeGreaterThanOrEqual(heldUntil);
  });
});
