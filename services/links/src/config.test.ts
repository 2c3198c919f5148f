import { describe, expect, it } from "vitest";
import { singleKeyRing } from "@bayad/kit";
import { readLinksConfig } from "./config.js";

describe("readLinksConfig", () => {
  it("reads the provider accounts' settings and the payments service's address", () => {
    const config = readLinksConfig({
      SECRETS_KEY: "k".repeat(32),
      PAYMONGO_API_BASE: "http://127.0.0.1:9999",
      XENDIT_API_BASE: "http://127.0.0.1:9998",
      PROVIDER_RECONCILE_AFTER: "30s",
      PROVIDER_RECONCILE_INTERVAL: "5s",
      PAYMENTS_URL: "http://payments:50051",
    });
    expect(config).toMatchObject({
      providerAccounts: { secretsKey: singleKeyRing("k".repeat(32)), paymongoApiBase: "http://127.0.0.1:9999", xenditApiBase: "http://127.0.0.1:9998", reconcileAfterMs: 30_000, reconcileIntervalMs: 5_000 },
      paymentsUrl: "http://payments:50051",
    });
  });

  it("defaults to PayMongo's and Xendit's APIs, 5m and 1m, and no payments service", () => {
    const config = readLinksConfig({});
    expect(config.providerAccounts).toEqual({ paymongoApiBase: "https://api.paymongo.com", xenditApiBase: "https://api.xendit.co", reconcileAfterMs: 300_000, reconcileIntervalMs: 60_000 });
    expect(config.paymentsUrl).toBeUndefined();
  });

  it.each([
    ["SECRETS_KEY", "too-short"],
    ["PROVIDER_RECONCILE_INTERVAL", "soon"],
    ["PROVIDER_RECONCILE_AFTER", "10"],
    ["PAYMENTS_URL", "not a url"],
    ["XENDIT_API_BASE", "not a url"],
  ])("refuses a bad %s, naming it", (name, value) => {
    expect(() => readLinksConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
