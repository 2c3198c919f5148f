import { SMS_SEGMENT_LENGTH, fillTemplate, measureTemplate, type MessageLocale, type TemplatePlaceholder } from "@bayad/messaging";

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
    subject: fillTemplate(SUBJECTS[options.locale], values),
    body: options.template !== undefined ? fillTemplate(options.template, values) : builtIn(options.locale, values),
  };
}

/**
 * Why `template` would not make one GSM-7 SMS with `appName` (the longest code and lifetime
 * substituted), or null when it does. Checked when a project sets it, so no send ever finds out.
 */
export function templateProblem(template: string, appName: string): string | null {
  const { unknown, hasCode, foreign, length } = measureTemplate(template, appName);
  if (unknown.length > 0) return `has unknown placeholder {${unknown[0]}}: only {app}, {code} and {minutes}`;
  if (!hasCode) return "must contain {code}";
  if (/^\s*test/i.test(template)) return "must not start with TEST (SMS providers drop such messages)";
  if (foreign.length > 0) return `must use GSM-7 characters only, not ${foreign.map((character) => JSON.stringify(character)).join(", ")}`;
  if (length > SMS_SEGMENT_LENGTH) return `must fit one SMS (${SMS_SEGMENT_LENGTH} characters) with a 10-digit code and the app name; it makes ${length}`;
  return null;
}

/** English counts: "1 minute" (Filipino's "minuto" is the same for one and many). */
function builtIn(locale: MessageLocale, values: Record<TemplatePlaceholder, string>): string {
  const text = fillTemplate(BUILT_IN_TEMPLATES[locale], values);
  return locale === "en" && values.minutes === "1" ? text.replace("in 1 minutes.", "in 1 minute.") : text;
}
