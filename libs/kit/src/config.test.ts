import { describe, expect, it } from "vitest";
import { ConfigError, envBool, envDuration, envEnum, envInt, envString, envUrl } from "./config.js";

describe("environment configuration", () => {
  it("uses the default when a variable is unset or blank", () => {
    expect(envInt({}, "PORT", 8080, { min: 0, max: 65535 })).toBe(8080);
    expect(envInt({ PORT: "  " }, "PORT", 8080, { min: 0, max: 65535 })).toBe(8080);
  });

  it("names the variable in one line when a value is bad", () => {
    expect(() => envInt({ PORT: "eighty" }, "PORT", 8080, { min: 0, max: 65535 })).toThrow(
      new ConfigError("PORT", 'must be an integer from 0 to 65535, got "eighty"'),
    );
    expect(() => envInt({ PORT: "70000" }, "PORT", 8080, { min: 0, max: 65535 })).toThrow(/^PORT /);
    expect(() => envBool({ DEV_TOKEN_ISSUER: "maybe" }, "DEV_TOKEN_ISSUER", true)).toThrow(/^DEV_TOKEN_ISSUER /);
    expect(() => envEnum({ MODE: "x" }, "MODE", ["a", "b"] as const, "a")).toThrow(/^MODE must be one of a, b/);
    expect(() => envUrl({ JWKS_URL: "not a url" }, "JWKS_URL")).toThrow(/^JWKS_URL /);
    expect(() => envString({}, "JWT_ISSUER")).toThrow("JWT_ISSUER is required but not set");
  });

  it("reads booleans in their usual spellings", () => {
    expect(envBool({ X: "off" }, "X", true)).toBe(false);
    expect(envBool({ X: "ON" }, "X", false)).toBe(true);
  });
});

describe("durations", () => {
  it("reads 500ms, 30s, 5m, 2h and 1d in milliseconds, and the fallback when unset", () => {
    const bounds = { minMs: 1, maxMs: 7 * 86_400_000 };
    expect(["500ms", "30s", "5m", "2h", "1d"].map((text) => envDuration({ D: text }, "D", 9, bounds))).toEqual([500, 30_000, 300_000, 7_200_000, 86_400_000]);
    expect(envDuration({}, "D", 9, bounds)).toBe(9);
  });

  it("refuses what is not a duration, or out of bounds, naming the variable", () => {
    for (const text of ["5", "5 minutes", "1.5m", "-3s", "10w"]) {
      expect(() => envDuration({ D: text }, "D", 9, { minMs: 1, maxMs: 86_400_000 })).toThrow(/^D must be a duration/);
    }
    expect(() => envDuration({ D: "2d" }, "D", 9, { minMs: 1, maxMs: 86_400_000 })).toThrow(/^D must be a duration/);
  });
});
