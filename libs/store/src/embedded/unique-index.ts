import { DuplicateKeyError, type IndexSpec } from "../port.js";
import { valueKey } from "./bson-values.js";
import { keyValues } from "./field-path.js";
import { matchesFilter } from "./filter-match.js";
import type { StoredDoc, Table } from "./table.js";

/**
 * Unique indexes, enforced by scanning: the embedded store serves development and tests, where
 * collections are small enough that a scan per write costs less than keeping index structures
 * consistent across transactions. Keys follow MongoDB: a missing field indexes as null, an array
 * field indexes each element (so two documents sharing any element collide), and a partial index
 * only covers the documents its filter matches.
 */

/** Throws DuplicateKeyError when `candidate` (new, or replacing the document with its `_id`) collides. */
export function assertUniqueKeys(table: Table, indexes: readonly IndexSpec[], candidate: StoredDoc): void {
  for (const index of indexes) {
    if (!index.unique || !covers(index, candidate)) continue;
    const candidateKeys = new Set(indexKeys(index, candidate));
    for (const other of table.values()) {
      if (other._id === candidate._id || !covers(index, other)) continue;
      if (indexKeys(index, other).some((key) => candidateKeys.has(key))) throw new DuplicateKeyError(index.name);
    }
  }
}

/** Throws DuplicateKeyError when the documents already stored break a unique index about to be enforced. */
export function assertIndexHolds(table: Table, index: IndexSpec): void {
  if (!index.unique) return;
  const taken = new Set<string>();
  for (const doc of table.values()) {
    if (!covers(index, doc)) continue;
    for (const key of new Set(indexKeys(index, doc))) {
      if (taken.has(key)) throw new DuplicateKeyError(index.name);
      taken.add(key);
    }
  }
}

function covers(index: IndexSpec, doc: StoredDoc): boolean {
  return index.partial === undefined || matchesFilter(doc, index.partial);
}

/** Every key the document contributes: the product of each field's key values. */
function indexKeys(index: IndexSpec, doc: StoredDoc): string[] {
  return Object.keys(index.keys).reduce<string[]>(
    (prefixes, field) => prefixes.flatMap((prefix) => keyValues(doc, field).map((value) => `${prefix}|${valueKey(value)}`)),
    [""],
  );
}
