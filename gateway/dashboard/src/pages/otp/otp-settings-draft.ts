import type { MessageLocale, OtpSettings, OtpSettingsPutRequest } from "./types";

/** The locales a project may write a template for, in the order the editor shows them. */
export const templateLocales: readonly MessageLocale[] = ["en", "fil"];

/** The OTP settings form as typed: the countries as one line of text. */
export interface OtpSettingsDraft {
  countries: string;
  appName: string;
  templates: Record<MessageLocale, string>;
}

export function otpSettingsDraft(settings: OtpSettings): OtpSettingsDraft {
  return {
    countries: settings.smsCountries.join(", "),
    appName: settings.appName,
    templates: { en: settings.templates.en ?? "", fil: settings.templates.fil ?? "" },
  };
}

/**
 * "ph, sg" (commas, semicolons or spaces between) → ["PH", "SG"], in the order typed. Whether
 * each is a country code is the API's to say (its details name `smsCountries[1]`, the place in
 * this list).
 */
export function parseCountries(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .filter((code) => code !== "")
    .map((code) => code.toUpperCase());
}

/**
 * The put request of a draft. A put replaces the settings: an empty app name or template is left
 * out, so the default name (Bayad) or the built-in message applies.
 */
export function otpSettingsRequest(draft: OtpSettingsDraft): OtpSettingsPutRequest {
  const appName = draft.appName.trim();
  const templates: NonNullable<OtpSettingsPutRequest["templates"]> = {};
  for (const locale of templateLocales) {
    const template = draft.templates[locale].trim();
    if (template !== "") templates[locale] = template;
  }
  return { smsCountries: parseCountries(draft.countries), ...(appName !== "" ? { appName } : {}), templates };
}

/** Whether a detail's field is the countries list or one of its items (`smsCountries[2]`). */
export const isCountriesField = (field: string) => /^smsCountries(\[\d+\])?$/.test(field);

/**
 * The problems with the countries list, from a 400's details by field, each item's named by the
 * code sent at its place: `"PHL": must match pattern …`. `sent` is the list as it was put.
 */
export function countryProblems(byField: ReadonlyMap<string, readonly string[]>, sent: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [field, texts] of byField) {
    const item = /^smsCountries\[(\d+)\]$/.exec(field);
    if (field === "smsCountries") problems.push(...texts);
    else if (item) {
      const index = Number(item[1]);
      const name = index < sent.length ? JSON.stringify(sent[index]) : `Country ${index + 1}`;
      problems.push(...texts.map((text) => `${name}: ${text}`));
    }
  }
  return problems;
}
