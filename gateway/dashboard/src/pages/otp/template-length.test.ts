import { describe, expect, it } from "vitest";
import { templateLength } from "./template-length";

describe("templateLength", () => {
  it("counts a template with a 10-digit code, 30 minutes and the app name in place", () => {
    // "Your Kape code is 9999999999. 30 min." is 37 characters.
    expect(templateLength("Your {app} code is {code}. {minutes} min.", "Kape")).toEqual({ length: 37, foreign: [], hasCode: true, fits: true });
  });

  it("counts the default app name, Bayad, when none is given", () => {
    expect(templateLength("{app} {code}", "  ").length).toBe("Bayad 9999999999".length);
  });

  it("counts the extended GSM-7 characters as two", () => {
    expect(templateLength("{code} [€]", "Kape").length).toBe(10 + 1 + 6);
  });

  it("says a template is too long once the code makes it pass 160", () => {
    const template = `${"a".repeat(150)}{code}`;
    expect(template.length).toBeLessThanOrEqual(160);
    expect(templateLength(template, "Kape")).toMatchObject({ length: 160, fits: true });
    expect(templateLength(`b${template}`, "Kape")).toMatchObject({ length: 161, fits: false });
  });

  it("names the characters outside GSM-7, each once, and says such a template does not fit", () => {
    expect(templateLength("Code {code} — hindi ê — ibahagi", "Kape")).toMatchObject({ foreign: ["—", "ê"], fits: false });
    // ñ and the accented vowels GSM-7 holds are fine.
    expect(templateLength("Ang code ng Piñas: {code}. Ça va, à bientôt?", "Kape").foreign).toEqual(["ô"]);
  });

  it("says when {code} is missing", () => {
    expect(templateLength("Your {app} code", "Kape").hasCode).toBe(false);
  });
});
