import { describe, expect, it } from "vitest";
import { newId, randomBase62 } from "./ids.js";

describe("ids", () => {
  it("are the prefix and 24 base62 characters", () => {
    expect(newId("cus")).toMatch(/^cus_[0-9A-Za-z]{24}$/);
  });

  it("never repeat across many draws", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("chk")));
    expect(ids.size).toBe(10_000);
  });

  it("use the whole alphabet", () => {
    const seen = new Set(randomBase62(20_000));
    expect(seen.size).toBe(62);
  });
});
