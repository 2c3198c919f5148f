import { HIGH, LOW } from "./index-key.js";
import type { Table } from "./table.js";

/** The earliest instant a JavaScript Date (and so a stored date) can hold. */
const EARLIEST = new Date(-8.64e15);

/**
 * Deletes the documents whose TTL has passed, walking each TTL index from its oldest date rather
 * than scanning the table. Like MongoDB's TTL monitor: only single-field indexes count, a field
 * that holds no Date never expires, and an array of dates expires with its earliest date.
 */
export function purgeExpired(table: Table, now: Date): void {
  for (const index of table.indexTrees()) {
    const { spec } = index;
    if (spec.expireAfterSeconds === undefined || index.fields.length !== 1) continue;
    const cutoff = new Date(now.getTime() - spec.expireAfterSeconds * 1000);
    // Dates sort after every other type, so the expired ones are one contiguous run of the index.
    const [low, high] = index.directions[0] === 1 ? [[EARLIEST, LOW], [cutoff, HIGH]] : [[cutoff, LOW], [EARLIEST, HIGH]];
    const expired = [...new Set(index.ids(low, high, false))];
    for (const id of expired) {
      const doc = table.get(id);
      if (doc !== undefined) table.delete(doc);
    }
  }
}
