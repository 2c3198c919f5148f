import type { MessageLocale } from "@bayad/messaging";
import { SMS_SEGMENT_LENGTH, gsm7Length, nonGsm7Characters } from "./gsm7.js";

/** The placeholders a project's template may hold. */
export const TEMPLATE_PLACEHOLDERS = ["app", "code", "minutes"] as const;

/** The longest values a template is checked with: the longest code (10 digits) and lifetime (1800 s). */
const LONGEST_CODE = "9".repeat(10);
const LONGEST_MINUTES = "30";

/**
 * The built-in messages, used for a locale the project set no template for. They start with
 * "Your"/"Ang", never with "TEST": Semaphore silently drops messages that start so.
 */
export const BUILT_IN_TEMPLATES: Record<MessageLocale, string> = {
  en: "Your {app} code is {code}. It expires in {minutes} minutes. Never share it.",
  fil: "Ang iyong {app} code ay {code}. Mag-e-expire ito sa loob ng {minutes} minuto. Huwag itong ibahagi.",
};

/** The e-mail subject per locale. It never holds the code (subjects show in previews and mail logs). */
const SUBJECTS: Record<MessageLocale, string> = {
  en: "Your {app} verification code",
  fil: "Ang iyong verification code sa {app}",
};

export interface MessageTextOptions {
  appName: string;
  locale: MessageLocale;
  /** The project's template for the locale, when it set one. */
  template: string | undefined;
}

/** The text of a code's message; e-mail gets the same body as SMS. */
export function composeMessage(code: string, ttlSeconds: number, options: MessageTextOptions): { subject: string; body: string } {
  // Whole minutes, rounded down: a code said to last less than it does is the safe mistake.
  const minutes = String(Math.max(1, Math.floor(ttlSeconds / 60)));
  const values = { app: options.appName, code, minutes };
  return {
    subject: fill(SUBJECTS[options.locale], values),
    body: options.template !== undefined ? fill(options.template, values) : builtIn(options.locale, values),
  };
}

/**
 * Why `template` would not make one GSM-7 SMS with `appName` (the longest code and lifetime
 * substituted), or null when it does. Checked when a project sets it, so no send ever finds out.
 */
export function templateProblem(template: string, appName: string): string | null {
  const unknown = [...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1]).filter((name) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) return `has unknown placeholder {${unknown[0]}}: only {app}, {code} and {minutes}`;
  if (!template.includes("{code}")) return "must contain {code}";
  if (/^\s*test/i.test(template)) return "must not start with TEST (SMS providers drop such messages)";
  const text = fill(template, { app: appName, code: LONGEST_CODE, minutes: LONGEST_MINUTES });
  const foreign = nonGsm7Characters(text);
  if (foreign.length > 0) return `must use GSM-7 characters only, not ${foreign.map((character) => JSON.stringify(character)).join(", ")}`;
  const length = gsm7Length(text);
  if (length > SMS_SEGMENT_LENGTH) return `must fit one SMS (${SMS_SEGMENT_LENGTH} characters) with a 10-digit code and the app name; it makes ${length}`;
  return null;
}

/** English counts: "1 minute" (Filipino's "minuto" is the same for one and many). */
function builtIn(locale: MessageLocale, values: Record<(typeof TEMPLATE_PLACEHOLDERS)[number], string>): string {
  const text = fill(BUILT_IN_TEMPLATES[locale], values);
  return locale === "en" && values.minutes === "1" ? text.replace("in 1 minutes.", "in 1 minute.") : text;
}

function fill(template: string, values: Record<(typeof TEMPLATE_PLACEHOLDERS)[number], string>): string {
  return template.replace(/\{(app|code|minutes)\}/g, (_placeholder, name: keyof typeof values) => values[name]);
}
