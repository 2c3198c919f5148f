import { describe, expect, it } from "vitest";
import { detailsByField } from "../../api/field-details";
import { countryProblems, isCountriesField, otpSettingsDraft, otpSettingsRequest, parseCountries } from "./otp-settings-draft";

describe("parseCountries", () => {
  it("reads codes separated by commas, semicolons or spaces, upper-cased, in the order typed", () => {
    expect(parseCountries("ph, sg;US  jp\n")).toEqual(["PH", "SG", "US", "JP"]);
  });

  it("reads nothing from an empty or blank line", () => {
    expect(parseCountries("")).toEqual([]);
    expect(parseCountries(" , ")).toEqual([]);
  });

  it("keeps what is not a country code for the API to name", () => {
    expect(parseCountries("PH, PHL, 63")).toEqual(["PH", "PHL", "63"]);
  });
});

describe("otpSettingsRequest", () => {
  const stored = { projectId: "prj_1", environment: "test" as const, smsCountries: ["PH", "SG"], appName: "Kape", templates: { fil: "Ang {app} code mo ay {code}." } };

  it("writes the settings as read back unchanged", () => {
    const draft = otpSettingsDraft(stored);
    expect(draft).toEqual({ countries: "PH, SG", appName: "Kape", templates: { en: "", fil: "Ang {app} code mo ay {code}." } });
    expect(otpSettingsRequest(draft)).toEqual({ smsCountries: ["PH", "SG"], appName: "Kape", templates: { fil: "Ang {app} code mo ay {code}." } });
  });

  it("leaves out an empty app name and empty templates, so the default name and the built-in messages apply", () => {
    expect(otpSettingsRequest({ countries: "ph", appName: "  ", templates: { en: " \n", fil: "" } })).toEqual({ smsCountries: ["PH"], templates: {} });
  });

  it("trims a template's surrounding blanks", () => {
    expect(otpSettingsRequest({ countries: "PH", appName: "Kape", templates: { en: "  {code} is your code\n", fil: "" } }).templates).toEqual({ en: "{code} is your code" });
  });
});

describe("countryProblems", () => {
  it("names each refused item by the code sent at its place, from the gateway's dotted or the service's bracketed index", () => {
    const details = ["smsCountries.1: must match pattern \"^[A-Za-z]{2}$\"", "smsCountries[2]: must be an ISO 3166 alpha-2 country code (PH)", "templates.fil: must contain {code}"];
    const { byField, other } = detailsByField(details, (field) => isCountriesField(field) || field === "templates.fil");
    expect(other).toEqual([]);
    expect(countryProblems(byField, ["PH", "PHL", "63"])).toEqual([
      '"PHL": must match pattern "^[A-Za-z]{2}$"',
      '"63": must be an ISO 3166 alpha-2 country code (PH)',
    ]);
  });

  it("keeps a problem with the whole list as it is", () => {
    const { byField } = detailsByField(["smsCountries: must NOT have more than 250 items"], isCountriesField);
    expect(countryProblems(byField, [])).toEqual(["must NOT have more than 250 items"]);
  });
});
