/**
 * Stored values follow BSON rules rather than JavaScript ones, so that the embedded store orders,
 * compares and keeps values exactly as the MongoDB adapter does.
 */

/**
 * Copies a value the way the driver (with `ignoreUndefined`) serializes it: undefined fields
 * vanish and undefined array items become null. On a stored value (already in that form) it is
 * the deep copy handed out to callers, several times cheaper than structuredClone.
 */
export function toBson(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => (item === undefined ? null : toBson(item)));
  if (value instanceof Date) return new Date(value.getTime());
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) copy[key] = toBson(field);
  }
  return copy;
}

export function isDocument(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** BSON's canonical type order; null and a missing value share the lowest rank. */
function typeRank(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === "number") return 2;
  if (typeof value === "string") return 3;
  if (Array.isArray(value)) return 5;
  if (value instanceof Date) return 9;
  if (typeof value === "boolean") return 8;
  if (typeof value === "object") return 4;
  return 10;
}

export function sameTypeBracket(a: unknown, b: unknown): boolean {
  return typeRank(a) === typeRank(b);
}

/** Total order over stored values; embedded documents compare field by field, in field order. */
export function compareValues(a: unknown, b: unknown): number {
  const rankDifference = typeRank(a) - typeRank(b);
  if (rankDifference !== 0) return Math.sign(rankDifference);
  if (typeof a === "number" && typeof b === "number") return compareNumbers(a, b);
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (Array.isArray(a) && Array.isArray(b)) return compareSequences(a, b, compareValues);
  if (isDocument(a) && isDocument(b)) return compareSequences(Object.entries(a), Object.entries(b), compareFields);
  return 0;
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

/** A string that is equal for two values exactly when `valuesEqual` holds, for hashing index keys. */
export function valueKey(value: unknown): string {
  if (value === null || value === undefined) return "n";
  if (typeof value === "number") return `d${Object.is(value, -0) ? 0 : value}`;
  if (typeof value === "string") return `s${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `b${value}`;
  if (value instanceof Date) return `t${value.getTime()}`;
  if (Array.isArray(value)) return `a[${value.map(valueKey).join(",")}]`;
  if (isDocument(value)) {
    return `o{${Object.entries(value).map(([key, field]) => `${JSON.stringify(key)}:${valueKey(field)}`).join(",")}}`;
  }
  return "?";
}

/**
 * Orders strings by code point, as MongoDB does (it compares their UTF-8 bytes) and as the
 * embedded store's index keys (UTF-8) sort. JavaScript's `<` compares UTF-16 code units instead,
 * which puts a character above U+FFFF (a surrogate pair) below U+E000–U+FFFF.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 || y < 0xd800) return x < y ? -1 : 1;
    return codePointRank(x) < codePointRank(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

/** A code unit at or above U+D800 ranked so that surrogates (code points above U+FFFF) come last. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** MongoDB orders NaN below every other number and equal to itself. */
function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(!Number.isNaN(a)) - Number(!Number.isNaN(b));
  // Not Math.sign(a - b): Infinity - Infinity is NaN.
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareFields([keyA, valueA]: [string, unknown], [keyB, valueB]: [string, unknown]): number {
  const rankDifference = typeRank(valueA) - typeRank(valueB);
  if (rankDifference !== 0) return Math.sign(rankDifference);
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  return compareValues(valueA, valueB);
}

function compareSequences<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const order = compare(a[i], b[i]);
    if (order !== 0) return order;
  }
  return Math.sign(a.length - b.length);
}
