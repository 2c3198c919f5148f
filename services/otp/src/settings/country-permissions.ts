import { AppError } from "@bayad/kit";
import type { OtpSettings } from "./otp-settings.js";

/**
 * The refusal of an SMS to a country the project does not allow in this environment (SMS pumping
 * sends codes to foreign ranges the merchant pays for), or undefined when it allows it. `country`
 * is the number's (parseSmsNumber). The caller counts the refusal
 * (bayad_otp_generate_refusals_total{reason="country_not_allowed"}).
 */
export function smsCountryRefusal(settings: OtpSettings, country: string): AppError | undefined {
  if (settings.smsCountries.includes(country)) return undefined;
  return new AppError("SMS_COUNTRY_NOT_ALLOWED", `The project does not send SMS to numbers of ${country}.`, {
    details: [`recipient: a number of ${country}, which the project's OTP settings do not allow (smsCountries: ${settings.smsCountries.join(", ") || "none"})`],
  });
}
