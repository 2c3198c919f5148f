import { compareStrings, compareValues } from "./bson-values.js";

/**
 * Index keys: one value per indexed field, then the document's `_id`, so every entry is distinct
 * and documents with equal field values sit next to each other in `_id` order.
 *
 * Bounds for a scan are shorter keys ending in a sentinel: `[...prefix, LOW]` sorts before every
 * key starting with `prefix`, `[...prefix, HIGH]` after every one of them.
 */
export type IndexKey = readonly unknown[];

export const LOW: unique symbol = Symbol("lowest key");
export const HIGH: unique symbol = Symbol("highest key");

/** Orders keys field by field (each in its index direction, by BSON order), then by `_id`. */
export function keyComparator(directions: readonly (1 | -1)[]): (a: IndexKey, b: IndexKey) => number {
  const idPosition = directions.length;
  return (a, b) => {
    const shared = Math.min(a.length, b.length);
    for (let i = 0; i < shared; i++) {
      const x = a[i];
      const y = b[i];
      if (x === y) continue;
      if (x === LOW || y === HIGH) return -1;
      if (x === HIGH || y === LOW) return 1;
      if (i === idPosition) return compareStrings(x as string, y as string);
      // Strings are most key fields; two strings that differ order as compareValues orders them.
      if (typeof x === "string" && typeof y === "string") return compareStrings(x, y) * (directions[i] as number);
      if (x instanceof Date && y instanceof Date) {
        const difference = x.getTime() - y.getTime();
        if (difference === 0) continue;
        return (difference < 0 ? -1 : 1) * (directions[i] as number);
      }
      const order = compareValues(x, y);
      if (order !== 0) return order * (directions[i] as number);
    }
    return a.length - b.length;
  };
}
