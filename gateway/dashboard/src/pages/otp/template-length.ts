import { SMS_SEGMENT_LENGTH, gsm7Length, nonGsm7Characters } from "./gsm7";

/** The app name messages give when a project set none (the OTP service's default). */
export const DEFAULT_APP_NAME = "Bayad";

/** The longest values the OTP service checks a template with: a 10-digit code, 30 minutes. */
const LONGEST_CODE = "9".repeat(10);
const LONGEST_MINUTES = "30";

/** How a template measures against one SMS, as the OTP service checks it when it is saved. */
export interface TemplateLength {
  /** Places taken of the segment's 160, with the longest code, 30 minutes and the app name. */
  length: number;
  /** Characters outside GSM-7, each once (any one of them makes the message UCS-2: refused). */
  foreign: string[];
  /** Whether it holds `{code}` (required). */
  hasCode: boolean;
  /** Within one segment, GSM-7 only. */
  fits: boolean;
}

/** A template's measure with `appName` (empty: the default, Bayad) in place of `{app}`. */
export function templateLength(template: string, appName: string): TemplateLength {
  const values: Record<string, string> = { app: appName.trim() || DEFAULT_APP_NAME, code: LONGEST_CODE, minutes: LONGEST_MINUTES };
  const text = template.replace(/\{(app|code|minutes)\}/g, (_placeholder, name: string) => values[name]);
  const length = gsm7Length(text);
  const foreign = nonGsm7Characters(text);
  return { length, foreign, hasCode: template.includes("{code}"), fits: length <= SMS_SEGMENT_LENGTH && foreign.length === 0 };
}
