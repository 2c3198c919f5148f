import { describe, expect, it } from "vitest";
import { fillTemplate, gsm7Length, measureTemplate, nonGsm7Characters } from "./sms-template.js";

describe("GSM-7", () => {
  it("takes the basic alphabet one place a character, Greek capitals and the accents it holds included", () => {
    const text = "Ang code: 123 @£$¥ èéùìò ÇØøÅå ΔΦΓΛΩΠΨΣΘΞ ÆæßÉ ¡¿ ÄÖÑÜ§ äöñüà";
    expect(nonGsm7Characters(text)).toEqual([]);
    expect(gsm7Length(text)).toBe([...text].length);
  });

  it("counts each extended character as two (an escape and the character)", () => {
    expect(gsm7Length("^{}\\[~]|€")).toBe(18);
    expect(gsm7Length("a€b")).toBe(4);
    expect(nonGsm7Characters("^{}\\[~]|€")).toEqual([]);
  });

  it("finds the characters outside GSM-7, each once, in order", () => {
    expect(nonGsm7Characters("Code — hindi ê — ibahagi ô ê")).toEqual(["—", "ê", "ô"]);
    expect(nonGsm7Characters("ok 😀")).toEqual(["😀"]);
  });
});

describe("measureTemplate", () => {
  it("measures a template with a 10-digit code, 30 minutes and the app name in place", () => {
    // "Your Kape code is 9999999999. 30 min." is 37 characters.
    expect(measureTemplate("Your {app} code is {code}. {minutes} min.", "Kape")).toEqual({ length: 37, foreign: [], hasCode: true, unknown: [], fits: true });
  });

  it("measures with the default app name, Bayad, when none is given", () => {
    expect(measureTemplate("{app} {code}", "  ").length).toBe("Bayad 9999999999".length);
  });

  it("counts the extended GSM-7 characters as two", () => {
    expect(measureTemplate("{code} [€]", "Kape").length).toBe(10 + 1 + 6);
  });

  it("says a template does not fit once the longest code makes it pass 160", () => {
    const template = `${"a".repeat(150)}{code}`;
    expect(template.length).toBeLessThanOrEqual(160);
    expect(measureTemplate(template, "Kape")).toMatchObject({ length: 160, fits: true });
    expect(measureTemplate(`b${template}`, "Kape")).toMatchObject({ length: 161, fits: false });
  });

  it("names the characters outside GSM-7, and says such a template does not fit", () => {
    expect(measureTemplate("Code {code} — hindi ê — ibahagi", "Kape")).toMatchObject({ foreign: ["—", "ê"], fits: false });
    expect(measureTemplate("Ang code ng Piñas: {code}. Ça va, à bientôt?", "Kape").foreign).toEqual(["ô"]);
    // The app name is measured too.
    expect(measureTemplate("{app}: {code}", "Café").foreign).toEqual([]);
    expect(measureTemplate("{app}: {code}", "Kapé Ô").foreign).toEqual(["Ô"]);
  });

  it("says when {code} is missing and which placeholders it does not know", () => {
    expect(measureTemplate("Your {app} code", "Kape")).toMatchObject({ hasCode: false, unknown: [] });
    expect(measureTemplate("{code} for {name} at {}", "Kape")).toMatchObject({ hasCode: true, unknown: ["name", ""] });
  });
});

describe("fillTemplate", () => {
  it("puts each known placeholder's value in and leaves anything else as written", () => {
    expect(fillTemplate("{app} {code} {minutes} {code} {name}", { app: "Kape", code: "123456", minutes: "5" })).toBe("Kape 123456 5 123456 {name}");
  });
});
