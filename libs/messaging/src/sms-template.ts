/**
 * A one-time passcode's SMS template and how it measures against one GSM-7 segment: the OTP
 * service refuses a template by this measure when a project saves it, and the dashboard shows the
 * same count as it is typed. Browser-safe: imports nothing from Node (`@bayad/messaging/sms-template`).
 */
import { SMS_SEGMENT_LENGTH, gsm7Length, nonGsm7Characters } from "./gsm7.js";

export { SMS_SEGMENT_LENGTH, gsm7Length, nonGsm7Characters } from "./gsm7.js";

/** The placeholders a project's template may hold. */
export const TEMPLATE_PLACEHOLDERS = ["app", "code", "minutes"] as const;

export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

/** The app name messages give when a project set none. */
export const DEFAULT_APP_NAME = "Bayad";

/** The longest values a template is checked with: the longest code (10 digits) and lifetime (1800 s). */
export const LONGEST_CODE = "9".repeat(10);
export const LONGEST_MINUTES = "30";

/** The app name as messages give it: trimmed, or the default when empty. */
export function appNameOrDefault(appName: string): string {
  return appName.trim() || DEFAULT_APP_NAME;
}

/** `template` with each known placeholder replaced by its value; anything else is left as written. */
export function fillTemplate(template: string, values: Record<TemplatePlaceholder, string>): string {
  return template.replace(/\{(app|code|minutes)\}/g, (_placeholder, name: TemplatePlaceholder) => values[name]);
}

/** The names of the `{…}` placeholders in `template` that are not {app}, {code} or {minutes}, in order. */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)]
    .map((match) => match[1])
    .filter((name) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name));
}

/** How a template measures against one SMS with an app name, the longest code and lifetime. */
export interface TemplateMeasure {
  /** Places taken of the segment's 160 (extended GSM-7 characters count two). */
  length: number;
  /** Characters outside GSM-7, each once (any one of them makes the message UCS-2: refused). */
  foreign: string[];
  /** Whether it holds `{code}` (required). */
  hasCode: boolean;
  /** Placeholders other than {app}, {code} and {minutes} (refused). */
  unknown: string[];
  /** Within one segment, GSM-7 only. */
  fits: boolean;
}

/** `template` measured with `appName` (empty: the default, Bayad), a 10-digit code and 30 minutes in place. */
export function measureTemplate(template: string, appName: string): TemplateMeasure {
  const text = fillTemplate(template, { app: appNameOrDefault(appName), code: LONGEST_CODE, minutes: LONGEST_MINUTES });
  const length = gsm7Length(text);
  const foreign = nonGsm7Characters(text);
  return {
    length,
    foreign,
    hasCode: template.includes("{code}"),
    unknown: unknownPlaceholders(template),
    fits: length <= SMS_SEGMENT_LENGTH && foreign.length === 0,
  };
}
