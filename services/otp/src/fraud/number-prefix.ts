import { countryCallingCode } from "../recipients/phone-number.js";

/** How many digits of the national number, after the country code, the prefix keeps. */
const NATIONAL_DIGITS = 3;

/**
 * The range an E.164 number (`+<digits>`, as normalizeRecipient gives it) belongs to for the
 * fraud signals: its country code and the next 3 digits, `+63917` for `+639171234567`, `+882123`
 * for `+8821234567`. A burst of codes to one such range is SMS pumping's signature (premium and
 * international ranges are allocated in blocks like these).
 */
export function numberPrefix(e164: string): string {
  const digits = e164.replace(/^\+/, "");
  return `+${digits.slice(0, countryCallingCode(e164).length + NATIONAL_DIGITS)}`;
}
