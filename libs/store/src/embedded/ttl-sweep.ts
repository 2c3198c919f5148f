import type { IndexSpec } from "../port.js";
import { keyValues } from "./field-path.js";
import type { Table } from "./table.js";

/**
 * Deletes the documents whose TTL has passed. Like MongoDB's TTL monitor: only single-field
 * indexes count, a field that holds no Date never expires, and an array of dates expires with
 * its earliest date.
 */
export function purgeExpired(table: Table, indexes: readonly IndexSpec[], now: Date): void {
  for (const index of indexes) {
    const fields = Object.keys(index.keys);
    const [field] = fields;
    if (index.expireAfterSeconds === undefined || field === undefined || fields.length !== 1) continue;
    const ttlMs = index.expireAfterSeconds * 1000;
    for (const doc of table.values()) {
      const times = keyValues(doc, field).flatMap((value) => (value instanceof Date ? [value.getTime()] : []));
      if (times.length > 0 && Math.min(...times) + ttlMs <= now.getTime()) table.delete(doc._id);
    }
  }
}
