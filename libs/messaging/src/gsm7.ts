/**
 * The GSM 03.38 alphabet an SMS is written in when it fits one 160-character segment. Any other
 * character switches the whole message to UCS-2, whose segment holds 70: one accented letter
 * would more than double what each code costs. Browser-safe (the dashboard counts with it too).
 */
const BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** Sent as an escape and the character: two of the segment's 160. */
const EXTENDED = "^{}\\[~]|€";

const basic = new Set(BASIC);
const extended = new Set(EXTENDED);

/** One SMS segment, GSM-7. */
export const SMS_SEGMENT_LENGTH = 160;

/** The characters of `text` outside GSM-7, each once, in order. */
export function nonGsm7Characters(text: string): string[] {
  return [...new Set([...text].filter((character) => !basic.has(character) && !extended.has(character)))];
}

/** How many of a segment's 160 places `text` takes (GSM-7 only). */
export function gsm7Length(text: string): number {
  let length = 0;
  for (const character of text) length += extended.has(character) ? 2 : 1;
  return length;
}
