import { AppError, type Environment } from "@bayad/kit";
import { DEFAULT_APP_NAME, appNameOrDefault, nonGsm7Characters, type MessageLocale } from "@bayad/messaging";
import type { CollectionDef, Store } from "@bayad/store";
import { BUILT_IN_TEMPLATES, templateProblem } from "../otps/message-text.js";

/** How a project's codes are sent in one environment, as `otp_settings` keeps it (one per project and environment). */
export interface OtpSettingsRecord {
  /** `<projectId>:<environment>`. */
  _id: string;
  projectId: string;
  environment: Environment;
  /** ISO 3166 alpha-2 codes of the countries SMS may go to. */
  smsCountries: string[];
  /** The name messages give the code's sender ({app}). */
  appName: string;
  /** The project's own message per locale; a locale without one gets the built-in. */
  templates: Partial<Record<MessageLocale, string>>;
  updatedAt: Date;
}

export type OtpSettings = Omit<OtpSettingsRecord, "_id" | "updatedAt">;

const otpSettingsCollection: CollectionDef = { name: "otp_settings" };

/** SMS pumping targets foreign ranges: until a project says otherwise, codes go to Philippine numbers only. */
export const defaultOtpSettings = (projectId: string, environment: Environment): OtpSettings => ({
  projectId,
  environment,
  smsCountries: ["PH"],
  appName: DEFAULT_APP_NAME,
  templates: {},
});

export interface OtpSettingsInput {
  projectId: string;
  environment: Environment;
  smsCountries: readonly string[];
  /** Empty: the default, Bayad. */
  appName: string;
  templates: Partial<Record<string, string>>;
}

const MAX_APP_NAME = 30;
const MAX_COUNTRIES = 250;
const LOCALES: readonly MessageLocale[] = ["en", "fil"];

/** The only code that knows the `otp_settings` collection. */
export function createOtpSettingsRepository(store: Store) {
  const settings = store.collection<OtpSettingsRecord>(otpSettingsCollection);
  return {
    /** The project's settings in the environment, or the defaults when none were put. */
    async get(projectId: string, environment: Environment): Promise<OtpSettings> {
      const found = await settings.findOne({ _id: settingsId(projectId, environment) });
      if (!found) return defaultOtpSettings(projectId, environment);
      const { _id, updatedAt: _updatedAt, ...rest } = found;
      return rest;
    },

    /** Replaces them; a bad value is a 400 naming its field, and nothing is written. */
    async put(input: OtpSettingsInput, now: Date): Promise<OtpSettings> {
      const checked = checkOtpSettings(input);
      const record: OtpSettingsRecord = { _id: settingsId(checked.projectId, checked.environment), ...checked, updatedAt: now };
      const { _id, ...fields } = record;
      await settings.updateOne({ _id }, { $set: fields }, { upsert: true });
      return checked;
    },
  };
}

export type OtpSettingsRepository = ReturnType<typeof createOtpSettingsRepository>;

const settingsId = (projectId: string, environment: Environment) => `${projectId}:${environment}`;

/** The settings as they would be stored, or a 400 naming the first bad field. */
export function checkOtpSettings(input: OtpSettingsInput): OtpSettings {
  if (input.projectId.trim() === "") throw invalid("projectId", "is required");
  const smsCountries = [...new Set(input.smsCountries.map((country) => country.trim().toUpperCase()))];
  const badCountry = smsCountries.findIndex((country) => !/^[A-Z]{2}$/.test(country));
  if (badCountry >= 0) throw invalid(`smsCountries[${badCountry}]`, "must be an ISO 3166 alpha-2 country code (PH)");
  if (smsCountries.length > MAX_COUNTRIES) throw invalid("smsCountries", `must hold at most ${MAX_COUNTRIES} countries`);
  const appName = appNameOrDefault(input.appName);
  if (appName.length > MAX_APP_NAME) throw invalid("appName", `must be at most ${MAX_APP_NAME} characters`);
  const foreign = nonGsm7Characters(appName);
  if (foreign.length > 0 || /[{}\r\n]/.test(appName)) throw invalid("appName", "must use GSM-7 characters only, on one line, without { or }");
  const templates: Partial<Record<MessageLocale, string>> = {};
  for (const [locale, template] of Object.entries(input.templates)) {
    if (template === undefined || template === "") continue;
    if (!(LOCALES as readonly string[]).includes(locale)) throw invalid(`templates.${locale}`, "is not a locale: en or fil");
    const problem = templateProblem(template, appName);
    if (problem) throw invalid(`templates.${locale}`, problem);
    templates[locale as MessageLocale] = template;
  }
  // The built-in message of a locale without a template must fit with this app name too.
  for (const locale of LOCALES) {
    if (templates[locale] !== undefined) continue;
    const problem = templateProblem(BUILT_IN_TEMPLATES[locale], appName);
    if (problem) throw invalid("appName", `makes the built-in ${locale} message too long: ${problem}`);
  }
  return { projectId: input.projectId, environment: input.environment, smsCountries, appName, templates };
}

function invalid(field: string, problem: string): AppError {
  return new AppError("VALIDATION_FAILED", `The OTP settings' ${field} ${problem}.`, { details: [`${field}: ${problem}`] });
}
