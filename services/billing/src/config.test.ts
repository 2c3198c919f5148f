import { describe, expect, it } from "vitest";
import { ConfigError, singleKeyRing } from "@bayad/kit";
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

describe("readBillingConfig's provider accounts", () => {
  it("reads SECRETS_KEY, PAYMONGO_API_BASE, XENDIT_API_BASE, PROVIDER_RECONCILE_* and PAYMENTS_URL", () => {
    const config = readBillingConfig({
      SECRETS_KEY: "k".repeat(32),
      PAYMONGO_API_BASE: "http://127.0.0.1:9999",
      XENDIT_API_BASE: "http://127.0.0.1:9998",
      PROVIDER_RECONCILE_AFTER: "2m",
      PROVIDER_RECONCILE_INTERVAL: "10s",
      PAYMENTS_URL: "http://payments:50051",
    });
    expect(config).toMatchObject({
      providerAccounts: { secretsKey: singleKeyRing("k".repeat(32)), paymongoApiBase: "http://127.0.0.1:9999", xenditApiBase: "http://127.0.0.1:9998", reconcileAfterMs: 120_000, reconcileIntervalMs: 10_000 },
      paymentsUrl: "http://payments:50051",
    });
  });

  it("refuses a SECRETS_KEY shorter than 32 characters and a duration that is not one, naming them", () => {
    expect(() => readBillingConfig({ SECRETS_KEY: "short" })).toThrow(/SECRETS_KEY/);
    expect(() => readBillingConfig({ PROVIDER_RECONCILE_AFTER: "5 minutes" })).toThrow(/PROVIDER_RECONCILE_AFTER/);
  });
});

describe("readBillingConfig's messages", () => {
  it("sends through the development outbox by default and reads the retry settings", () => {
    expect(readBillingConfig({}).messages).toMatchObject({
      email: { kind: "dev" },
      sms: { kind: "dev" },
      intervalMs: 5_000,
      retryInitialMs: 30_000,
      maxAttempts: 8,
    });
    const config = readBillingConfig({ BILLING_MESSAGES_RETRY_MS: "100", BILLING_MESSAGES_MAX_ATTEMPTS: "3", PUBLIC_URL: "https://pay.example" });
    expect(config.messages).toMatchObject({ retryInitialMs: 100, maxAttempts: 3, publicUrl: "https://pay.example" });
  });

  it("reads SMTP and Semaphore with the variables the OTP service uses, under billing's own selectors", () => {
    const config = readBillingConfig({
      BILLING_EMAIL_SENDER: "smtp",
      SMTP_HOST: "smtp.example.ph",
      SMTP_FROM: "Bayad <billing@bayad.test>",
      BILLING_SMS_SENDER: "semaphore",
      SEMAPHORE_API_KEY: "sem-key",
    });
    expect(config.messages.email).toMatchObject({ kind: "smtp", smtp: { host: "smtp.example.ph", port: 587, tls: "starttls" } });
    expect(config.messages.sms).toMatchObject({ kind: "semaphore", semaphore: { apiKey: "sem-key" } });
    expect(() => readBillingConfig({ BILLING_EMAIL_SENDER: "smtp" })).toThrow(/SMTP_HOST/);
    expect(() => readBillingConfig({ BILLING_SMS_SENDER: "carrier-pigeon" })).toThrow(/BILLING_SMS_SENDER/);
  });
});
