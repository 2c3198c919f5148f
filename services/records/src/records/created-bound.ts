import type { Timestamp } from "@bufbuild/protobuf/wkt";

/**
 * A `createdAfter` or `createdBefore` bound as the instant stored `createdAt` values compare
 * against. They are whole milliseconds, so a bound with a finer part rounds up to the next
 * millisecond: `createdAt >= bound` (inclusive) and `createdAt < bound` (exclusive) then answer
 * exactly as they would against the bound itself.
 */
export function createdBound(timestamp: Timestamp): Date {
  return new Date(Number(timestamp.seconds) * 1000 + Math.ceil(timestamp.nanos / 1_000_000));
}
