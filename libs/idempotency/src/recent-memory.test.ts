import { describe, expect, it } from "vitest";
import { RecentMemory } from "./recent-memory.js";

describe("RecentMemory", () => {
  it("keeps the newest two generations and forgets what came before them", () => {
    const memory = new RecentMemory<string, number>(2);
    for (const [key, value] of [["a", 1], ["b", 2], ["c", 3], ["d", 4], ["e", 5]] as const) memory.set(key, value);
    // Generations: [a b] → [c d] (older [a b]) → [e] (older [c d]): a and b are forgotten.
    expect(["a", "b", "c", "d", "e"].map((key) => memory.get(key))).toEqual([undefined, undefined, 3, 4, 5]);
    expect(memory.has("c")).toBe(true);
    expect(memory.has("a")).toBe(false);
  });

  it("overwrites a key of the newer generation in place, without moving the generations on", () => {
    const memory = new RecentMemory<string, number>(2);
    memory.set("a", 1);
    memory.set("b", 2);
    memory.set("b", 3);
    expect([memory.get("a"), memory.get("b")]).toEqual([1, 3]);
  });
});
