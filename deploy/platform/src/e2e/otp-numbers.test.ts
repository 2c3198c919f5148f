import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, type TestPlatform } from "../test-support/harness.js";
import { newPhone, otpCalls } from "../test-support/otp-calls.js";

/**
 * Issue 46 (number intelligence, country permissions, templates) through the gateway: a landline
 * is refused for SMS, a foreign number is refused until the project's OTP settings allow its
 * country, and a Filipino generate gets the project's Filipino template in the outbox.
 */

let api: TestPlatform;
const { generate, outbox } = otpCalls(() => api);

beforeAll(async () => {
  api = await startTestPlatform();
});

afterAll(async () => {
  await api?.close();
});

const settingsPath = () => `/admin/v1/projects/${api.platform.projectId}/otp-settings/test`;

describe("OTP numbers, countries and templates", () => {
  it("refuses a Manila landline with 400 naming recipient, and sends nothing", async () => {
    const landline = "+63281234567";
    const refused = await generate({ recipient: landline, channel: "sms" });
    expectError(refused, 400, "VALIDATION_FAILED");
    expect(refused.body.error.details).toEqual(["recipient: a landline cannot receive SMS"]);
    expect(await outbox(landline)).toEqual([]);
  });

  it("refuses a foreign mobile by default, and sends to it once the project's settings allow its country", async () => {
    const singapore = "+6591234567";
    const refused = await generate({ recipient: singapore, channel: "sms" });
    expect(refused.body.error?.details).toEqual([expect.stringMatching(/^recipient: a number of SG/)]);
    expectError(refused, 422, "SMS_COUNTRY_NOT_ALLOWED");
    expect(refused.body.error.details).toEqual([expect.stringMatching(/^recipient: a number of SG/)]);
    expect(await outbox(singapore)).toEqual([]);

    const defaults = await api.request("GET", settingsPath(), { credential: api.platform.adminApiKey });
    expect(defaults.body.data).toMatchObject({ smsCountries: ["PH"], appName: "Bayad", templates: {} });
    const put = await api.request("PUT", settingsPath(), { body: { smsCountries: ["PH", "SG"] }, credential: api.platform.adminApiKey });
    expect(put.status).toBe(200);

    expect((await generate({ recipient: singapore, channel: "sms" })).status).toBe(201);
    expect(await outbox(singapore)).toHaveLength(1);
  });

  it("refuses a template that does not fit one GSM-7 SMS, and sends a Filipino generate the project's Filipino template", async () => {
    const bad = await api.request("PUT", settingsPath(), {
      body: { smsCountries: ["PH"], templates: { fil: "Ang code mo ay {code} — salamat" } },
      credential: api.platform.adminApiKey,
    });
    expectError(bad, 400, "VALIDATION_FAILED");
    expect(bad.body.error.details).toEqual([expect.stringMatching(/^templates\.fil: must use GSM-7 characters only/)]);

    const put = await api.request("PUT", settingsPath(), {
      body: { smsCountries: ["PH"], appName: "Kape", templates: { fil: "Ang {app} code mo ay {code}. {minutes} minuto lang ito." } },
      credential: api.platform.adminApiKey,
    });
    expect(put.status).toBe(200);
    const phone = newPhone();
    expect((await generate({ recipient: phone, channel: "sms", locale: "fil", ttlSeconds: 600 })).status).toBe(201);
    const [message] = await outbox(phone);
    expect(message).toMatchObject({ locale: "fil", channel: "sms" });
    expect(message!.body).toMatch(/^Ang Kape code mo ay \d{6}\. 10 minuto lang ito\.$/);
  });
});
