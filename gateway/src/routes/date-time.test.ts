import { describe, expect, it } from "vitest";
import { dateTimeFilter, timestampOfDateTime } from "./date-time.js";

const utc = (text: string) => BigInt(Date.parse(text) / 1000);

describe("timestampOfDateTime", () => {
  it("keeps the digits after the millisecond", () => {
    expect(timestampOfDateTime("2026-11-21T20:46:25.3345Z")).toMatchObject({ seconds: utc("2026-11-21T20:46:25Z"), nanos: 334_500_000 });
    expect(timestampOfDateTime("2026-11-21T20:46:25.123456789Z")).toMatchObject({ nanos: 123_456_789 });
  });

  it("reads whole seconds and offsets", () => {
    expect(timestampOfDateTime("2026-11-21T20:46:25Z")).toMatchObject({ seconds: utc("2026-11-21T20:46:25Z"), nanos: 0 });
    expect(timestampOfDateTime("2026-11-22T04:46:25.5+08:00")).toMatchObject({ seconds: utc("2026-11-21T20:46:25Z"), nanos: 500_000_000 });
    expect(timestampOfDateTime("2026-11-21t20:46:25z")).toMatchObject({ seconds: utc("2026-11-21T20:46:25Z"), nanos: 0 });
    expect(timestampOfDateTime("2026-11-21 15:16:25-0530")).toMatchObject({ seconds: utc("2026-11-21T20:46:25Z"), nanos: 0 });
    expect(timestampOfDateTime("2026-11-22T04:46:25+08")).toMatchObject({ seconds: utc("2026-11-21T20:46:25Z"), nanos: 0 });
    expect(timestampOfDateTime("2026-12-31T23:59:60Z")).toMatchObject({ seconds: utc("2027-01-01T00:00:00Z"), nanos: 0 });
  });

  it("rounds digits past the nanosecond up, carrying into the seconds", () => {
    expect(timestampOfDateTime("2026-11-21T20:46:25.0000000001Z")).toMatchObject({ nanos: 1 });
    expect(timestampOfDateTime("2026-11-21T20:46:25.9999999991Z")).toMatchObject({ seconds: utc("2026-11-21T20:46:26Z"), nanos: 0 });
    expect(timestampOfDateTime("2026-11-21T20:46:25.1000000000Z")).toMatchObject({ nanos: 100_000_000 });
  });

  it("answers undefined for text that is not a date-time", () => {
    expect(timestampOfDateTime("2026-11-21")).toBeUndefined();
    expect(timestampOfDateTime("2026-11-21T20:46Z")).toBeUndefined();
  });
});

describe("dateTimeFilter", () => {
  it("reads a list's date-time filter to the nanosecond, and nothing when the query has none", () => {
    expect(dateTimeFilter("2026-11-21T20:46:25.3345Z", "createdAfter")).toMatchObject({ nanos: 334_500_000 });
    expect(dateTimeFilter(undefined, "createdAfter")).toBeUndefined();
  });

  it("refuses a value it cannot read with VALIDATION_FAILED naming the parameter", () => {
    expect(() => dateTimeFilter("2026-11-21", "createdBefore")).toThrow(
      expect.objectContaining({ code: "VALIDATION_FAILED", details: ["createdBefore: must be a date-time"] }),
    );
  });
});
