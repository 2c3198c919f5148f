import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseProject, openDashboardPath, signIn } from "../test-support/dashboard.js";
import { unique } from "../test-support/harness.js";

/**
 * One-time passcodes in the dashboard (Chromium, against a started platform): the OTP settings
 * page saves a project's Filipino template (kept across a reload), refuses one that does not fit
 * one SMS and a country that is not one, each beside its field, and the development outbox shows a
 * Filipino SMS as sent by SMS in Filipino, at a desk's width and a phone's.
 */

const appName = "Kape ni Juan Online";
const filipino = "Ang {app} code mo ay {code}. {minutes} minuto lang ito.";
/** 150 characters as typed; 175 with the app name and a 10-digit code: more than one SMS. */
const tooLong =
  "Ang {app} code mo ay {code}. Mag-e-expire ito sa loob ng {minutes} minuto. Huwag itong ibahagi kahit kanino, kahit sa mga nagsasabing taga-{app} sila.";

describe.skipIf(!chromiumReady("the dashboard OTP tests"))(`dashboard: OTP settings and the outbox in Chromium (${skipReason})`, () => {
  const suite = browserSuite();

  it("saves a Filipino template and keeps it, shows refusals beside their fields, and the outbox says a Filipino SMS", async () => {
    const project = await suite.api.newProject(unique("Kape ni Juan"));
    const settingsPath = `/admin/v1/projects/${project.projectId}/otp-settings/test`;
    const stored = async () => (await suite.api.admin("GET", settingsPath)).body.data;

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, "/otp-settings");
      await page.getByRole("heading", { name: "OTP settings", level: 1 }).waitFor();
      const form = page.getByRole("form", { name: "OTP settings" });
      const countries = form.getByLabel("Countries SMS may go to");
      const template = form.getByLabel("Filipino template");

      // The defaults: Philippine numbers only, Bayad, the built-in messages.
      await countries.waitFor();
      expect(await countries.inputValue()).toBe("PH");
      expect(await form.getByLabel("App name").inputValue()).toBe("Bayad");
      await form.locator("#otp-template-fil-length").filter({ hasText: "Empty: the built-in Filipino message." }).waitFor();

      // A Filipino template, counted as it is typed with the app name and a 10-digit code.
      await form.getByLabel("App name").fill(appName);
      await template.fill(filipino);
      await form.locator("#otp-template-fil-length").filter({ hasText: "66 of 160 characters with a 10-digit code." }).waitFor();
      await form.getByRole("button", { name: "Save OTP settings" }).click();
      await form.getByRole("status").filter({ hasText: "OTP settings saved for test mode." }).waitFor();
      expect(await stored()).toMatchObject({ smsCountries: ["PH"], appName, templates: { fil: filipino } });
      expect((await stored()).templates.en).toBeUndefined();

      // Kept: a reload reads it back.
      await page.reload();
      await template.waitFor();
      expect(await template.inputValue()).toBe(filipino);
      expect(await form.getByLabel("App name").inputValue()).toBe(appName);

      // Too long for one SMS once filled in: counted over as typed, refused by the OTP service beside the template, nothing saved.
      expect(tooLong.length).toBeLessThanOrEqual(160);
      await template.fill(tooLong);
      await form.locator("#otp-template-fil-length").filter({ hasText: "175 of 160 characters with a 10-digit code: 15 over one SMS." }).waitFor();
      await form.getByRole("button", { name: "Save OTP settings" }).click();
      await form.locator("#otp-template-fil-problem").filter({ hasText: "must fit one SMS (160 characters) with a 10-digit code and the app name; it makes 175" }).waitFor();
      expect(await template.getAttribute("aria-invalid")).toBe("true");
      expect(await template.getAttribute("aria-describedby")).toContain("otp-template-fil-problem");
      await form.getByRole("alert").filter({ hasText: "VALIDATION_FAILED" }).waitFor();
      expect(await form.getByRole("status").count()).toBe(0);
      expect((await stored()).templates).toEqual({ fil: filipino });

      // A country code that is not one: named beside the countries, by the code typed.
      await template.fill(filipino);
      await countries.fill("ph, PHL");
      await form.getByRole("button", { name: "Save OTP settings" }).click();
      await form.locator("#otp-countries-problem").filter({ hasText: '"PHL": ' }).waitFor();
      expect(await countries.getAttribute("aria-invalid")).toBe("true");
      expect(await template.getAttribute("aria-invalid")).toBeNull();
      expect((await stored()).smsCountries).toEqual(["PH"]);
    });

    // A Filipino code by SMS, with the template saved above.
    const token = await suite.api.serviceToken(project.projectId, ["otp:generate"]);
    const phone = `+63917${String(randomInt(1_000_000, 9_999_999))}`;
    const generated = await suite.api.request("POST", "/api/v1/shared/otp/generate", {
      credential: token,
      body: { recipient: phone, channel: "sms", locale: "fil", ttlSeconds: 600 },
    });
    expect(generated.status).toBe(201);

    for (const width of [1280, 390]) {
      await suite.browser.withPage(async (page) => {
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        await signIn(page, suite.base, suite.api.platform.adminApiKey);
        await chooseProject(page, project.projectId);
        await openDashboardPath(page, suite.base, `/outbox?recipient=${encodeURIComponent(phone)}`);
        const message = page.getByRole("article", { name: `Message to ${phone}` });
        await message.waitFor();
        const facts = message.getByRole("definition");
        const sent = message.getByLabel("How it was sent");
        expect(await sent.getByRole("term").allTextContents()).toEqual(["Channel", "Language"]);
        expect(await facts.allTextContents()).toEqual(["SMS", "Filipino"]);
        expect(await sent.isVisible()).toBe(true);
        expect(await message.locator(".outbox-body").textContent()).toMatch(/^Ang Kape ni Juan Online code mo ay \d{6}\. 10 minuto lang ito\.$/);
      });
    }
  }, 90_000);
});
