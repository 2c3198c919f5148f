import { parsePhoneNumberWithError, ParseError } from "libphonenumber-js/max";
import { AppError } from "@bayad/kit";

/** An SMS recipient as libphonenumber reads it: E.164, and the country its number belongs to. */
export interface SmsNumber {
  e164: string;
  /** ISO 3166 alpha-2; "001" for numbers of no country (satellite, international services). */
  country: string;
}

/**
 * National numbers (`0917…`) are read as Philippine ones, because Bayad serves Philippine users.
 * The "max" metadata is the one that tells a number's type: SMS goes only to numbers that can take
 * it (mobile, or a range that may be either, as the US and Canada publish theirs), never to a
 * landline, a toll-free or a premium-rate number.
 */
export function parseSmsNumber(raw: string): SmsNumber {
  let parsed;
  try {
    parsed = parsePhoneNumberWithError(raw.trim(), { defaultCountry: "PH" });
  } catch (error) {
    if (error instanceof ParseError) throw refused("not a phone number");
    throw error;
  }
  const country = parsed.country ?? "001";
  if (!parsed.isValid()) throw refused(country === "001" ? "not a valid phone number" : `not a valid number for ${country}`);
  const type = parsed.getType();
  if (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") throw refused(typeReason(type));
  return { e164: parsed.number, country };
}

/**
 * The country calling code of an E.164 number (`63` for `+639171234567`, `1` for `+14155550123`,
 * `882` for `+8821234567`), as libphonenumber's metadata gives it; the digits up to the first 3
 * when the number belongs to no code it knows (never the case for a number parseSmsNumber passed).
 */
export function countryCallingCode(e164: string): string {
  try {
    return parsePhoneNumberWithError(e164).countryCallingCode;
  } catch {
    return e164.replace(/^\+/, "").slice(0, 3);
  }
}

function typeReason(type: string | undefined): string {
  switch (type) {
    case "FIXED_LINE":
      return "a landline cannot receive SMS";
    case "TOLL_FREE":
    case "PREMIUM_RATE":
    case "SHARED_COST":
      return `a ${type.toLowerCase().replace("_", "-")} number cannot receive SMS`;
    default:
      return "the number cannot receive SMS";
  }
}

function refused(reason: string): AppError {
  return new AppError("VALIDATION_FAILED", `The recipient cannot receive SMS: ${reason}.`, { details: [`recipient: ${reason}`] });
}
