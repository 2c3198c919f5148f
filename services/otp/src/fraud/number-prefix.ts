/**
 * ITU-T E.164's two-digit country codes; 1 (NANP) and 7 are the one-digit ones and every other
 * code has three digits. Country codes are prefix-free, so the first digits tell the length.
 */
const twoDigitCountryCodes = new Set([
  "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48", "49",
  "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66",
  "81", "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
]);

/** How many digits of the national number, after the country code, the prefix keeps. */
const NATIONAL_DIGITS = 3;

function countryCodeLength(digits: string): number {
  if (digits.startsWith("1") || digits.startsWith("7")) return 1;
  return twoDigitCountryCodes.has(digits.slice(0, 2)) ? 2 : 3;
}

/**
 * The range an E.164 number (`+<digits>`, as normalizeRecipient gives it) belongs to for the
 * fraud signals: its country code and the next 3 digits, `+63917` for `+639171234567`, `+882123`
 * for `+8821234567`. A burst of codes to one such range is SMS pumping's signature (premium and
 * international ranges are allocated in blocks like these).
 */
export function numberPrefix(e164: string): string {
  const digits = e164.replace(/^\+/, "");
  return `+${digits.slice(0, countryCodeLength(digits) + NATIONAL_DIGITS)}`;
}
