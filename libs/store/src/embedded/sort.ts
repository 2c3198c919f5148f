import type { SortSpec } from "../port.js";
import { compareValues } from "./bson-values.js";
import { keyValues } from "./field-path.js";

/**
 * Orders documents as MongoDB does: by BSON type order (missing and null lowest, then numbers,
 * strings, objects, arrays, booleans, dates), an array field sorting by its smallest element
 * ascending and its largest descending. Ties keep their current order.
 */
export function sortDocuments<D>(docs: readonly D[], spec: SortSpec): D[] {
  const fields = Object.entries(spec);
  const keyed = docs.map((doc) => ({
    doc,
    keys: fields.map(([path, direction]) => sortKey(keyValues(doc, path), direction)),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const order = compareValues(a.keys[i], b.keys[i]);
      if (order !== 0) return order * (fields[i]?.[1] ?? 1);
    }
    return 0;
  });
  return keyed.map(({ doc }) => doc);
}

function sortKey(values: unknown[], direction: 1 | -1): unknown {
  return values.reduce((best, value) => (compareValues(value, best) * direction < 0 ? value : best));
}
