/** The latest time toISOString prints (±8.64e15 ms, ECMAScript's time range); beyond it, it throws. */
const MAX_TIME_MS = 8.64e15;
const MINUTE_MS = 60_000;

let minuteStart = Number.NaN;
let minuteText = "";

/**
 * `new Date(ms).toISOString()`, as cheaply as a response needs it: the envelope's timestamp and
 * each listed item's dates are formatted on every request, and V8's toISOString costs about as
 * much as the rest of a listed record's JSON. Times formatted one after another mostly fall in
 * one minute, so the text up to the minute ("2026-01-02T03:04:", made by toISOString itself, for
 * every year it prints) is kept from the last call and only the seconds and milliseconds are
 * written. Throws, as toISOString does, for NaN and times out of range.
 */
export function isoTime(ms: number): string {
  // As Date does: a fractional time is cut toward zero.
  const at = Math.trunc(ms);
  if (!(Math.abs(at) <= MAX_TIME_MS)) return new Date(at).toISOString();
  const inMinute = ((at % MINUTE_MS) + MINUTE_MS) % MINUTE_MS;
  const start = at - inMinute;
  if (start !== minuteStart) {
    const text = new Date(at).toISOString();
    // "…T03:04:05.678Z" less its last 7 characters ("05.678Z").
    minuteText = text.slice(0, -7);
    minuteStart = start;
    return text;
  }
  const seconds = Math.floor(inMinute / 1000);
  const millis = inMinute - seconds * 1000;
  return `${minuteText}${seconds < 10 ? "0" : ""}${seconds}.${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}
