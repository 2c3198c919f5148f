import { AppError, Counter, metricOnce, type Registry } from "@bayad/kit";
import type { OtpSettings } from "./otp-settings.js";

/** Why a generate was refused before any send: `bayad_otp_sms_refused_total{reason}`. */
export type SmsRefusalReason = "country_not_allowed";

export interface OtpMetrics {
  smsRefused(reason: SmsRefusalReason): void;
}

export function registerOtpMetrics(registry: Registry | undefined): OtpMetrics {
  if (!registry) return { smsRefused: () => undefined };
  const refused = metricOnce(registry, "bayad_otp_sms_refused_total", () =>
    new Counter({
      name: "bayad_otp_sms_refused_total",
      help: "OTP generates refused before any SMS was sent, by reason (country_not_allowed).",
      labelNames: ["reason"],
      registers: [registry],
    }),
  );
  return { smsRefused: (reason) => refused.inc({ reason }) };
}

/**
 * Refuses an SMS to a country the project does not allow in this environment (SMS pumping sends
 * codes to foreign ranges the merchant pays for). `country` is the number's (parseSmsNumber).
 */
export function checkSmsCountry(settings: OtpSettings, country: string, metrics: OtpMetrics): void {
  if (settings.smsCountries.includes(country)) return;
  metrics.smsRefused("country_not_allowed");
  throw new AppError("SMS_COUNTRY_NOT_ALLOWED", `The project does not send SMS to numbers of ${country}.`, {
    details: [`recipient: a number of ${country}, which the project's OTP settings do not allow (smsCountries: ${settings.smsCountries.join(", ") || "none"})`],
  });
}
