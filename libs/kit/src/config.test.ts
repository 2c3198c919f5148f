import { describe, expect, it } from "vitest";
import { ConfigError, envBool, envDuration, envEnum, envInt, envKeyRing, envString, envUrl } from "./config.js";

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

describe("envKeyRing", () => {
  const names = { single: "SECRETS_KEY", ring: "SECRETS_KEYS" };
  const a = "a".repeat(32);
  const b = "b".repeat(32);

  it("reads a ring oldest first, and one key as the ring of its legacy key", () => {
    expect(envKeyRing({ SECRETS_KEYS: `legacy:${a}, k2:${b}` }, names, 32)).toEqual({ keys: [{ id: "legacy", key: a }, { id: "k2", key: b }] });
    expect(envKeyRing({ SECRETS_KEY: a }, names, 32)).toEqual({ keys: [{ id: "legacy", key: a }] });
    expect(envKeyRing({}, names, 32)).toBeUndefined();
  });

  it("accepts both forms only when the ring holds the single key as its legacy entry", () => {
    expect(envKeyRing({ SECRETS_KEY: a, SECRETS_KEYS: `legacy:${a},k2:${b}` }, names, 32)?.keys).toHaveLength(2);
    expect(() => envKeyRing({ SECRETS_KEY: a, SECRETS_KEYS: `k2:${b}` }, names, 32)).toThrow(
      new ConfigError("SECRETS_KEYS", 'must hold SECRETS_KEY as its "legacy" entry when both are set (or set only one of them)'),
    );
  });

  it("names the variable and never repeats a key when an entry is bad", () => {
    const refusals = [`k2${b}`, `K2:${b}`, `a-key-id-of-17-ch:${b}`, "k2:short", `k2:${a},k2:${b}`];
    for (const text of refusals) {
      let message = "";
      try {
        envKeyRing({ SECRETS_KEYS: text }, names, 32);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^SECRETS_KEYS /);
      expect(message).not.toContain(b.slice(0, 8));
      expect(message).not.toContain("short");
    }
    expect(() => envKeyRing({ SECRETS_KEY: "short" }, names, 32)).toThrow("SECRETS_KEY must be at least 32 characters");
  });
});
