import { describe, expect, it } from "vitest";
import { ConfigError, envBool, envEnum, envInt, envString, envUrl } from "./config.js";

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
