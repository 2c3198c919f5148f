import { describe, expect, it } from "vitest";
import { createMetricsRegistry } from "@bayad/kit";
import { createTestStore } from "@bayad/store/testing";
import { generateOtp } from "../otps/generate.js";
import { BUILT_IN_TEMPLATES, composeMessage, templateProblem } from "../otps/message-text.js";
import { readOtpConfig } from "../config.js";
import { createOtpDeps } from "../otps/otp-deps.js";
import { caller, createHarness, freshKey, scriptedSender } from "../test-support/otp-harness.js";
import { checkOtpSettings, createOtpSettingsRepository } from "./otp-settings.js";

const put = (overrides: Partial<Parameters<typeof checkOtpSettings>[0]> = {}) => ({
  projectId: "prj_a",
  environment: "test" as const,
  smsCountries: ["PH"],
  appName: "",
  templates: {},
  ...overrides,
});

describe("OTP settings", () => {
  it("defaults to the Philippines only, the app Bayad and the built-in messages, per project and environment", async () => {
    const settings = createOtpSettingsRepository(createTestStore());
    await settings.put(put({ smsCountries: ["ph", "US"], appName: "Kape" }), new Date());
    expect(await settings.get("prj_a", "test")).toEqual({ projectId: "prj_a", environment: "test", smsCountries: ["PH", "US"], appName: "Kape", templates: {} });
    expect(await settings.get("prj_a", "live")).toMatchObject({ smsCountries: ["PH"], appName: "Bayad", templates: {} });
  });

  it("refuses a template with a character outside GSM-7, naming the field, and writes nothing", async () => {
    const settings = createOtpSettingsRepository(createTestStore());
    await expect(settings.put(put({ templates: { fil: "Ang code mo ay {code} — huwag ibahagi." } }), new Date())).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      details: ['templates.fil: must use GSM-7 characters only, not "—"'],
    });
    expect(await settings.get("prj_a", "test")).toMatchObject({ templates: {} });
  });

  it("refuses a template longer than one SMS once the longest code and the app name are in it", () => {
    // With a 10-digit code for {code}: 156 with the default app name (Bayad), 161 with a 10-letter one.
    const template = `{app} {code} ${"x".repeat(139)}`;
    expect(() => checkOtpSettings(put({ templates: { en: template } }))).not.toThrow();
    expect(() => checkOtpSettings(put({ appName: "KapeKapeKa", templates: { en: template } }))).toThrow(
      expect.objectContaining({ details: ["templates.en: must fit one SMS (160 characters) with a 10-digit code and the app name; it makes 161"] }),
    );
  });

  it("refuses a template without {code}, with an unknown placeholder, or a bad country", () => {
    expect(() => checkOtpSettings(put({ templates: { en: "Hello from {app}" } }))).toThrow(expect.objectContaining({ details: ["templates.en: must contain {code}"] }));
    expect(() => checkOtpSettings(put({ templates: { en: "{code} {name}" } }))).toThrow(expect.objectContaining({ details: [expect.stringMatching(/^templates\.en: has unknown placeholder \{name\}/)] }));
    expect(() => checkOtpSettings(put({ smsCountries: ["PHL"] }))).toThrow(expect.objectContaining({ details: ["smsCountries[0]: must be an ISO 3166 alpha-2 country code (PH)"] }));
  });

  it("keeps the built-in messages within one GSM-7 SMS with the longest app name", () => {
    const longestApp = "A".repeat(30);
    for (const template of Object.values(BUILT_IN_TEMPLATES)) expect(templateProblem(template, longestApp)).toBeNull();
    expect(() => checkOtpSettings(put({ appName: longestApp }))).not.toThrow();
    expect(composeMessage("123456", 60, { appName: "Kape", locale: "en", template: undefined }).body).toBe("Your Kape code is 123456. It expires in 1 minute. Never share it.");
  });
});

describe("SMS country permissions", () => {
  it("refuses a foreign number before anything is sent or written, counts it, and allows it once the project does", async () => {
    const registry = createMetricsRegistry();
    const harness = await createHarness();
    const sms = scriptedSender([]);
    const deps = createOtpDeps({
      store: harness.store,
      config: { hashSecret: harness.deps.secret, limits: harness.deps.limits, suspicious: readOtpConfig({ OTP_HASH_SECRET: "s".repeat(32) }).suspicious, sendTimeoutMs: 8_000 },
      senders: { byChannel: { sms, email: harness.outbox }, devOutbox: harness.outbox },
      logger: harness.deps.logger,
      now: harness.clock.now,
      metrics: registry,
    });
    const refused = async () => (await registry.getSingleMetric("bayad_otp_generate_refusals_total")!.get()).values.find((value) => value.labels.reason === "country_not_allowed")?.value ?? 0;

    await expect(generateOtp(deps, caller(freshKey()), { recipient: "+447911123456", channel: "sms", digits: 0, ttlSeconds: 0 })).rejects.toMatchObject({
      code: "SMS_COUNTRY_NOT_ALLOWED",
      details: ["recipient: a number of GG, which the project's OTP settings do not allow (smsCountries: PH)"],
    });
    expect(sms.sent).toEqual([]);
    expect(await harness.otps()).toEqual([]);
    expect(await refused()).toBe(1);

    await deps.settings.put(put({ smsCountries: ["PH", "GG"] }), harness.clock.now());
    await generateOtp(deps, caller(freshKey()), { recipient: "+447911123456", channel: "sms", digits: 0, ttlSeconds: 0 });
    expect(sms.sent).toHaveLength(1);
    expect(await refused()).toBe(1);
  });
});

describe("locale", () => {
  it("sends a Filipino generate the project's Filipino template, and records the locale in the outbox", async () => {
    const { deps, outbox, clock } = await createHarness();
    await deps.settings.put(put({ appName: "Kape", templates: { fil: "Ang {app} code mo: {code}. {minutes} minuto lang ito." } }), clock.now());
    await generateOtp(deps, caller(freshKey()), { recipient: "09171234567", channel: "sms", digits: 0, ttlSeconds: 600, locale: "fil" });
    const [message] = await outbox.list({ recipient: "+639171234567" });
    expect(message?.body).toMatch(/^Ang Kape code mo: \d{6}\. 10 minuto lang ito\.$/);
    expect(message).toMatchObject({ locale: "fil", channel: "sms" });
  });

  it("sends e-mail the built-in Filipino text with a Filipino subject, and refuses an unknown locale", async () => {
    const { deps, outbox } = await createHarness();
    await generateOtp(deps, caller(freshKey()), { recipient: "juan@example.ph", channel: "email", digits: 0, ttlSeconds: 0, locale: "fil" });
    const [message] = await outbox.list({ recipient: "juan@example.ph" });
    expect(message).toMatchObject({ locale: "fil", channel: "email", subject: "Ang iyong verification code sa Bayad" });
    expect(message?.body).toMatch(/^Ang iyong Bayad code ay \d{6}\. Mag-e-expire ito sa loob ng 5 minuto\. Huwag itong ibahagi\.$/);
    await expect(generateOtp(deps, caller(freshKey()), { recipient: "juan@example.ph", channel: "email", digits: 0, ttlSeconds: 0, locale: "es" })).rejects.toMatchObject({
      details: ["locale: must be en or fil"],
    });
  });
});
