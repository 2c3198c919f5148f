import type { StagedTable } from "./staged-table.js";
import type { StoredTable } from "./stored-table.js";

/** The earliest instant a JavaScript Date (and so a stored date) can hold. */
const EARLIEST = new Date(-8.64e15);

/**
 * Stages the deletion of the documents whose TTL has passed, walking each TTL index from its
 * oldest date rather than scanning the table. Like MongoDB's TTL monitor: only single-field
 * indexes count, a field that holds no Date never expires, and an array of dates expires with its
 * earliest date.
 */
export function stageExpired(table: StoredTable, staged: StagedTable, now: Date): void {
  for (const index of table.indexes()) {
    const { spec } = index;
    if (spec.expireAfterSeconds === undefined || index.fields.length !== 1) continue;
    const cutoff = new Date(now.getTime() - spec.expireAfterSeconds * 1000);
    // Dates sort after every other type, so the expired ones are one contiguous run of the index.
    const [low, high] =
      index.directions[0] === 1
        ? [{ values: [EARLIEST], after: false }, { values: [cutoff], after: true }]
        : [{ values: [cutoff], after: false }, { values: [EARLIEST], after: true }];
    for (const id of new Set(index.ids(low, high, false))) {
      const doc = staged.get(id);
      if (doc !== undefined) staged.delete(doc);
    }
  }
}
