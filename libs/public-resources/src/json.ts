import { timestampMs, type Timestamp } from "@bufbuild/protobuf/wkt";
import { isoTime } from "@bayad/kit";

/** Turns a path the provider returned (the sandbox's hosted pages) into an absolute URL. */
export type PublicUrl = (pathOrUrl: string) => string;

/** A service's answer always carries the resource it was asked for; its absence is a fault. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the service answered without a ${what}`);
  return value;
}

export function moneyToJson(money: { amountMinor: bigint; currency: string } | undefined) {
  return { amountMinor: Number(money?.amountMinor ?? 0n), currency: money?.currency ?? "PHP" };
}

/** `{ [name]: ISO text }` when the timestamp is set, else nothing, for spreading into a response. */
export function dateField(name: string, timestamp: Timestamp | undefined): Record<string, string> {
  return timestamp ? { [name]: isoTime(timestampMs(timestamp)) } : {};
}

/** `{ [name]: value }` when the value is not empty, for optional response fields. */
export function optionalField<T>(name: string, value: T): Record<string, T> {
  const empty = value === "" || value === 0 || value === undefined || (typeof value === "object" && value !== null && Object.keys(value).length === 0);
  return empty ? {} : { [name]: value };
}
