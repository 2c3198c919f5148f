import { describe, expect, it } from "vitest";
import { ConfigError } from "@bayad/kit";
import { readBillingConfig } from "./config.js";

describe("readBillingConfig", () => {
  it("defaults the clock to a 10 s tick and a 30 s lease", () => {
    expect(readBillingConfig({})).toMatchObject({ clockIntervalMs: 10_000, clockLeaseMs: 30_000 });
  });

  it("reads the clock settings and the sandbox's", () => {
    const config = readBillingConfig({ BILLING_CLOCK_INTERVAL_MS: "500", BILLING_CLOCK_LEASE_MS: "2000", SANDBOX_SECRET: "shared-sandbox-secret" });
    expect(config).toMatchObject({ clockIntervalMs: 500, clockLeaseMs: 2000, sandbox: { secret: "shared-sandbox-secret" } });
  });

  it("refuses a SANDBOX_SECRET shorter than 16 characters, naming it", () => {
    expect(() => readBillingConfig({ SANDBOX_SECRET: "too-short" })).toThrow(/SANDBOX_SECRET/);
  });

  it("refuses an interval below 10 ms with a one-line ConfigError", () => {
    expect(() => readBillingConfig({ BILLING_CLOCK_INTERVAL_MS: "5" })).toThrow(ConfigError);
    expect(() => readBillingConfig({ BILLING_CLOCK_LEASE_MS: "soon" })).toThrow(/BILLING_CLOCK_LEASE_MS/);
  });
});
