import { describe, expect, it } from "vitest";
import { MongoConfigError } from "./mongo-config-error.js";
import { defaultMongoTimeouts, longestWaitMs, resolveMongoTimeouts } from "./mongo-settings.js";

const GATEWAY_DEADLINE_MS = 10_000;

describe("resolveMongoTimeouts", () => {
  it("keeps the longest wait of the defaults well below the gateway's 10 s deadline", () => {
    expect(resolveMongoTimeouts()).toEqual(defaultMongoTimeouts);
    expect(longestWaitMs(defaultMongoTimeouts)).toBeLessThanOrEqual(GATEWAY_DEADLINE_MS * 0.75);
  });

  it("applies overrides over the defaults and ignores those left undefined", () => {
    const timeouts = resolveMongoTimeouts({ operationTimeoutMs: 500, transactionTimeoutMs: undefined });
    expect(timeouts).toEqual({ ...defaultMongoTimeouts, operationTimeoutMs: 500 });
  });

  it.each([0, -1, 1.5, Number.NaN, 600_001])("names the setting given %s, which is not a whole number of milliseconds from 1 to 600000", (value) => {
    expect(() => resolveMongoTimeouts({ connectTimeoutMs: value })).toThrow(
      new MongoConfigError("connectTimeoutMs", `must be a whole number of milliseconds from 1 to 600000, got ${value}`),
    );
  });

  it("refuses a socket timeout that would cut off the server's own time limits", () => {
    expect(() => resolveMongoTimeouts({ operationTimeoutMs: 1_500 })).toThrow(
      new MongoConfigError("socketTimeoutMs", "must be greater than operationTimeoutMs (1500 ms), got 1500"),
    );
    expect(() => resolveMongoTimeouts({ maxCommitTimeMs: 1_400, transactionTimeoutMs: 1_000, socketTimeoutMs: 1_300 })).toThrow(
      /^socketTimeoutMs must be greater than maxCommitTimeMs/,
    );
  });

  it("refuses a transaction deadline shorter than one operation or one commit", () => {
    expect(() => resolveMongoTimeouts({ transactionTimeoutMs: 999 })).toThrow(
      new MongoConfigError("transactionTimeoutMs", "must be at least operationTimeoutMs (1000 ms), got 999"),
    );
    expect(() => resolveMongoTimeouts({ operationTimeoutMs: 500, maxCommitTimeMs: 1_200, transactionTimeoutMs: 1_100 })).toThrow(
      /^transactionTimeoutMs must be at least maxCommitTimeMs \(1200 ms\)/,
    );
  });
});
