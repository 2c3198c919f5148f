import { localeLabels } from "../../format";
import { SMS_SEGMENT_LENGTH, measureTemplate } from "@bayad/messaging/sms-template";
import type { MessageLocale } from "./types";

/**
 * Under a template, as it is typed: how many of one SMS's 160 characters it takes with a 10-digit
 * code, 30 minutes and the app name, and what the OTP service would refuse (too long, a character
 * outside GSM-7, no `{code}`, a placeholder it does not know). Empty: the built-in message.
 */
export function TemplateLengthNote({ id, locale, template, appName }: { id: string; locale: MessageLocale; template: string; appName: string }) {
  if (template.trim() === "") {
    return (
      <span className="template-length muted" id={id}>
        Empty: the built-in {localeLabels[locale]} message.
      </span>
    );
  }
  const measured = measureTemplate(template.trim(), appName);
  const problems = [
    ...(measured.length > SMS_SEGMENT_LENGTH ? [`${measured.length - SMS_SEGMENT_LENGTH} over one SMS`] : []),
    ...(measured.foreign.length > 0 ? [`not in the SMS alphabet (GSM-7): ${measured.foreign.map((character) => `“${character}”`).join(" ")}`] : []),
    ...(measured.hasCode ? [] : ["{code} is missing"]),
    ...measured.unknown.map((name) => `{${name}} is not a placeholder`),
  ];
  return (
    <span className={problems.length > 0 ? "template-length over" : "template-length muted"} id={id}>
      {measured.length} of {SMS_SEGMENT_LENGTH} characters with a 10-digit code{problems.length > 0 ? `: ${problems.join("; ")}` : ""}.
    </span>
  );
}
