import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "@bayad/kit";
import { readOtpConfig } from "./config.js";
import { createTestCertificates } from "./test-support/test-certificates.js";

const smtp = { OTP_EMAIL_SENDER: "smtp", SMTP_HOST: "smtp.example.ph", SMTP_FROM: "no-reply@bayad.ph" };
const notPem = join(mkdtempSync(join(tmpdir(), "bayad-otp-config-")), "not.pem");
writeFileSync(notPem, "not a certificate");

describe("readOtpConfig", () => {
  it("defaults to the development outbox, the published limits and a generated secret", () => {
    const config = readOtpConfig({});
    expect(config).toMatchObject({
      hashSecretGenerated: true,
      email: { kind: "dev" },
      sms: { kind: "dev" },
      sendTimeoutMs: 8_000,
      limits: {
        generatePerRecipient: { limit: 5, windowSeconds: 900 },
        generatePerCaller: { limit: 60, windowSeconds: 60 },
        verifyPerOtp: { limit: 10, windowSeconds: 60 },
        verifyPerRecipient: { limit: 20, windowSeconds: 900 },
        verifyPerCaller: { limit: 300, windowSeconds: 60 },
        // Far above one project's limit, over the same window.
        generateRecipientCeiling: { limit: 50, windowSeconds: 900 },
        verifyRecipientCeiling: { limit: 200, windowSeconds: 900 },
        generatePerPrefix: { limit: 30, windowSeconds: 600 },
        generatePerClient: { limit: 30, windowSeconds: 60 },
      },
      suspicious: { minGenerated: 20, minVerifiedPercent: 20, windowSeconds: 3_600, cooldownSeconds: 3_600 },
    });
    expect(config.hashSecret.length).toBeGreaterThanOrEqual(32);
    expect(readOtpConfig({}).hashSecret).not.toBe(config.hashSecret);
  });

  it("reads every limit and the senders from the environment", () => {
    const config = readOtpConfig({
      OTP_HASH_SECRET: "s".repeat(32),
      OTP_VERIFY_OTP_LIMIT: "3",
      OTP_VERIFY_OTP_WINDOW_SECONDS: "30",
      OTP_EMAIL_SENDER: "smtp",
      SMTP_HOST: "smtp.example.ph",
      SMTP_TLS: "implicit",
      SMTP_USER: "u",
      SMTP_PASS: "p",
      SMTP_FROM: "Bayad <no-reply@bayad.ph>",
      OTP_SMS_SENDER: "semaphore",
      SEMAPHORE_API_KEY: "key",
      SEMAPHORE_SENDER_NAME: "BAYAD",
    });
    expect(config.hashSecretGenerated).toBe(false);
    expect(config.limits.verifyPerOtp).toEqual({ limit: 3, windowSeconds: 30 });
    expect(readOtpConfig({ OTP_VERIFY_RECIPIENT_WINDOW_SECONDS: "60", OTP_VERIFY_RECIPIENT_CEILING: "41" }).limits.verifyRecipientCeiling).toEqual({
      limit: 41,
      windowSeconds: 60,
    });
    expect(config.email).toMatchObject({ kind: "smtp", smtp: { host: "smtp.example.ph", port: 465, tls: "implicit", verifyCertificate: true, user: "u", pass: "p" } });
    expect(config.sms).toMatchObject({ kind: "semaphore", semaphore: { apiKey: "key", senderName: "BAYAD", baseUrl: "https://api.semaphore.co" } });
  });

  it("requires TLS for SMTP (STARTTLS by default) and verifies certificates unless told not to", async () => {
    expect(readOtpConfig(smtp).email).toMatchObject({ kind: "smtp", smtp: { tls: "starttls", port: 587, verifyCertificate: true } });
    expect(readOtpConfig({ ...smtp, SMTP_TLS_VERIFY: "false" }).email).toMatchObject({ smtp: { verifyCertificate: false } });
    const { ca } = await createTestCertificates();
    const caFile = join(mkdtempSync(join(tmpdir(), "bayad-otp-config-")), "ca.pem");
    writeFileSync(caFile, ca);
    expect(readOtpConfig({ ...smtp, SMTP_CA_FILE: caFile }).email).toMatchObject({ smtp: { ca } });
  });

  it.each(["127.0.0.1", "127.8.9.10", "localhost", "mail.localhost", "::1", "[::1]", "0:0:0:0:0:0:0:1"])(
    "lets SMTP_TLS be none for the loopback host %s",
    (host) => {
      expect(readOtpConfig({ ...smtp, SMTP_HOST: host, SMTP_TLS: "none" }).email).toMatchObject({ smtp: { host, tls: "none", port: 587 } });
    },
  );

  it.each([
    [{ OTP_EMAIL_SENDER: "smtp", SMTP_FROM: "a@b.ph" }, "SMTP_HOST is required but not set"],
    [{ OTP_EMAIL_SENDER: "smtp", SMTP_HOST: "h" }, "SMTP_FROM is required but not set"],
    [{ OTP_EMAIL_SENDER: "smtp", SMTP_HOST: "h", SMTP_FROM: "a@b.ph", SMTP_USER: "u" }, "SMTP_PASS is required when SMTP_USER is set"],
    [{ ...smtp, SMTP_TLS: "none" }, 'SMTP_TLS may be none only for a loopback SMTP_HOST (localhost, 127.0.0.0/8, ::1), not "smtp.example.ph": use implicit or starttls'],
    [{ ...smtp, SMTP_HOST: "10.0.0.25", SMTP_TLS: "none" }, 'SMTP_TLS may be none only for a loopback SMTP_HOST'],
    [{ ...smtp, SMTP_TLS: "ssl" }, 'SMTP_TLS must be one of implicit, starttls, none, got "ssl"'],
    [{ ...smtp, SMTP_SECURE: "true" }, "SMTP_SECURE is replaced by SMTP_TLS (implicit, starttls or none)"],
    [{ ...smtp, SMTP_CA_FILE: "/nonexistent/ca.pem" }, 'SMTP_CA_FILE cannot be read (ENOENT): "/nonexistent/ca.pem"'],
    [{ ...smtp, SMTP_CA_FILE: notPem }, "SMTP_CA_FILE must be a file of PEM certificates"],
    [{ ...smtp, SMTP_TLS_VERIFY: "maybe" }, "SMTP_TLS_VERIFY"],
    [{ OTP_SMS_SENDER: "semaphore" }, "SEMAPHORE_API_KEY is required but not set"],
    [{ OTP_SMS_SENDER: "semaphore", SEMAPHORE_API_KEY: "k", SEMAPHORE_BASE_URL: "not a url" }, 'SEMAPHORE_BASE_URL must be a URL, got "not a url"'],
    [{ OTP_SMS_SENDER: "semaphore", SEMAPHORE_API_KEY: "k", SEMAPHORE_SENDER_NAME: "FAR-TOO-LONG-NAME" }, "SEMAPHORE_SENDER_NAME must be 1 to 11 letters or digits"],
    [{ OTP_SMS_SENDER: "twilio" }, 'OTP_SMS_SENDER must be one of dev, semaphore, got "twilio"'],
    [{ OTP_HASH_SECRET: "short" }, "OTP_HASH_SECRET must be at least 32 characters"],
    [{ OTP_GENERATE_RECIPIENT_LIMIT: "0" }, 'OTP_GENERATE_RECIPIENT_LIMIT must be an integer from 1 to 1000000, got "0"'],
    [{ OTP_GENERATE_RECIPIENT_CEILING: "10" }, 'OTP_GENERATE_RECIPIENT_CEILING must be more than twice OTP_GENERATE_RECIPIENT_LIMIT (5), so that no one project can reach it, got "10"'],
    [{ OTP_VERIFY_RECIPIENT_LIMIT: "50", OTP_VERIFY_RECIPIENT_CEILING: "100" }, "OTP_VERIFY_RECIPIENT_CEILING must be more than twice OTP_VERIFY_RECIPIENT_LIMIT (50)"],
  ])("fails with one line naming the variable (%o)", (env, message) => {
    expect(() => readOtpConfig(env)).toThrow(ConfigError);
    expect(() => readOtpConfig(env)).toThrow(message);
  });
});
