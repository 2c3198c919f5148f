import { create } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { createdBound } from "./created-bound.js";

const at = (seconds: number, nanos: number) => createdBound(create(TimestampSchema, { seconds: BigInt(seconds), nanos }));
const second = Date.parse("2026-11-21T20:46:25Z") / 1000;

describe("createdBound", () => {
  it("keeps a whole millisecond as it is", () => {
    expect(at(second, 334_000_000).toISOString()).toBe("2026-11-21T20:46:25.334Z");
    expect(at(second, 0).toISOString()).toBe("2026-11-21T20:46:25.000Z");
  });

  it("rounds a finer part up, so a record of .334 is before .3345 and not at or after it", () => {
    const bound = at(second, 334_500_000);
    expect(bound.toISOString()).toBe("2026-11-21T20:46:25.335Z");
    const record = new Date("2026-11-21T20:46:25.334Z");
    expect(record < bound).toBe(true);
    expect(at(second, 999_000_001).toISOString()).toBe("2026-11-21T20:46:26.000Z");
  });
});
