import { create } from "@bufbuild/protobuf";
import { TimestampSchema, type Timestamp } from "@bufbuild/protobuf/wkt";
import { AppError } from "@bayad/kit";

/** RFC 3339 date-time in the forms the request validator accepts (ajv-formats' `date-time`). */
const dateTime = /^(\d{4})-(\d\d)-(\d\d)[T\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:Z|([+-])(\d\d)(?::?(\d\d))?)$/i;

/**
 * A date-time the validator accepted, as a Timestamp to the nanosecond. `new Date` would drop
 * everything after the millisecond, and a bound of `…25.3345Z` would then fall on the wrong side
 * of a record created at `…25.334Z`. Digits past the nanosecond round up, so a bound never moves
 * earlier than what was asked; a leap second (`23:59:60`) is the second after `23:59:59`.
 * Undefined for text not of that form.
 */
export function timestampOfDateTime(text: string): Timestamp | undefined {
  const parts = dateTime.exec(text);
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number);
  const fraction = parts[7] ?? "";
  const offsetMinutes = parts[8] ? (parts[8] === "-" ? -1 : 1) * (Number(parts[9]) * 60 + Number(parts[10] ?? 0)) : 0;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, second);
  let seconds = BigInt(utc.getTime() / 1000);
  let nanos = Number(fraction.slice(0, 9).padEnd(9, "0"));
  if (/[1-9]/.test(fraction.slice(9))) nanos += 1;
  if (nanos === 1_000_000_000) {
    seconds += 1n;
    nanos = 0;
  }
  return create(TimestampSchema, { seconds, nanos });
}

/** A list's date-time filter (`createdAfter`), to the nanosecond; undefined when the query has none. */
export function dateTimeFilter(value: string | undefined, parameter: string): Timestamp | undefined {
  if (value === undefined) return undefined;
  const parsed = timestampOfDateTime(value);
  if (!parsed) throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: [`${parameter}: must be a date-time`] });
  return parsed;
}
