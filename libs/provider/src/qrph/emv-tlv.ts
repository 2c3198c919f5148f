import { AppError } from "@bayad/kit";

/** The longest value one EMV data object can hold: its length is written as two digits. */
export const EMV_MAX_VALUE_LENGTH = 99;

/** One data object to encode: its two-digit ID and its value. */
export type EmvDataObject = readonly [id: string, value: string];

const ID_PATTERN = /^\d{2}$/;
// Bayad writes printable ASCII only, so a length means the same in characters and in bytes to
// every reader; a wallet that counts one way or the other then still finds the next ID.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function invalid(detail: string): AppError {
  return new AppError("VALIDATION_FAILED", "The EMV QR data is not valid.", { details: [detail] });
}

/**
 * One EMV data object: two-digit ID, two-digit length, value. Throws rather than truncating a
 * value over 99 characters, because a cut identifier would pay or reconcile the wrong thing.
 */
export function encodeDataObject(id: string, value: string): string {
  if (!ID_PATTERN.test(id)) throw invalid(`data object ID "${id}" must be two digits`);
  if (value.length === 0) throw invalid(`data object ${id} must not be empty`);
  if (value.length > EMV_MAX_VALUE_LENGTH) {
    throw invalid(`data object ${id} is ${value.length} characters; at most ${EMV_MAX_VALUE_LENGTH} fit`);
  }
  if (!PRINTABLE_ASCII.test(value)) throw invalid(`data object ${id} must be printable ASCII`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

/** Data objects one after another, in the order given: the value of a template. */
export function encodeDataObjects(objects: readonly EmvDataObject[]): string {
  return objects.map(([id, value]) => encodeDataObject(id, value)).join("");
}

/**
 * A template: a data object whose value is itself data objects, in the order given. The whole
 * nested value is bound by the same 99-character limit, so a template fails as one unit.
 */
export function encodeTemplate(id: string, objects: readonly EmvDataObject[]): string {
  return encodeDataObject(id, encodeDataObjects(objects));
}

/**
 * The data objects at one level of an EMV payload, by ID, in payload order. Template values are
 * left as text; read them with `parseEmvTemplate`. Throws on a malformed or truncated payload
 * and on a repeated ID, since either means the code cannot be trusted field by field.
 */
export function parseEmvTlv(payload: string): Map<string, string> {
  // Code points, not UTF-16 units: EMV counts characters, and a code from another issuer may
  // carry non-ASCII text (for instance an alternate-language merchant name).
  const chars = Array.from(payload);
  const objects = new Map<string, string>();
  let at = 0;
  while (at < chars.length) {
    const header = chars.slice(at, at + 4).join("");
    if (!/^\d{4}$/.test(header)) throw invalid(`no ID and length at position ${at}`);
    const id = header.slice(0, 2);
    const length = Number(header.slice(2));
    const end = at + 4 + length;
    if (length === 0 || end > chars.length) throw invalid(`data object ${id} has a bad length ${length}`);
    if (objects.has(id)) throw invalid(`data object ${id} appears twice`);
    objects.set(id, chars.slice(at + 4, end).join(""));
    at = end;
  }
  return objects;
}

/**
 * The data objects inside the template `id` of an already parsed level, or undefined when the
 * template is absent.
 */
export function parseEmvTemplate(
  objects: ReadonlyMap<string, string>,
  id: string,
): Map<string, string> | undefined {
  const value = objects.get(id);
  return value === undefined ? undefined : parseEmvTlv(value);
}
