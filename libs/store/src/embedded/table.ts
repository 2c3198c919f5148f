import { DuplicateKeyError, type Filter, type IndexSpec, type SortSpec, type Update } from "../port.js";
import { applyUpdate, buildUpsertDoc, parseUpdate } from "./apply-update.js";
import { toBson, valuesEqual } from "./bson-values.js";
import { matchesFilter } from "./filter-match.js";
import { sortDocuments } from "./sort.js";
import { assertUniqueKeys } from "./unique-index.js";

/**
 * One collection's documents and the synchronous operations on them. Nothing here awaits, so an
 * operation run under the store's lock, or on a transaction's private copy, matches and writes in
 * one step. Stored documents are never mutated in place (a write replaces the entry), which is
 * what lets a transaction work on a shallow copy of a table.
 */

export type StoredDoc = Record<string, unknown> & { _id: string };

/** Documents by `_id`, in insertion order. */
export type Table = Map<string, StoredDoc>;

export interface TableView {
  readonly docs: Table;
  /** The indexes `ensureIndexes` has put in force; declared but not yet ensured ones do not count. */
  readonly indexes: readonly IndexSpec[];
}

export interface Query {
  filter: Filter;
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface UpdateOutcome {
  before: StoredDoc | null;
  after: StoredDoc | null;
  matched: number;
  modified: number;
  upsertedId?: string;
}

export function insertDocument(view: TableView, input: object): StoredDoc {
  const { _id, ...rest } = toBson(input) as Record<string, unknown>;
  if (typeof _id !== "string") throw new Error("Documents need a string _id");
  const doc: StoredDoc = { _id, ...rest };
  if (view.docs.has(_id)) throw new DuplicateKeyError("_id_");
  assertUniqueKeys(view.docs, view.indexes, doc);
  view.docs.set(_id, doc);
  return doc;
}

export function findDocuments(docs: Table, query: Query): StoredDoc[] {
  const filter = toBson(query.filter) as Filter;
  const skip = query.skip ?? 0;
  // A limit of 0 means no limit, as in MongoDB.
  const limit = query.limit || Infinity;
  const matches: StoredDoc[] = [];
  for (const doc of candidates(docs, filter)) {
    if (matchesFilter(doc, filter)) matches.push(doc);
    if (query.sort === undefined && matches.length >= skip + limit) break;
  }
  const ordered = query.sort === undefined ? matches : sortDocuments(matches, query.sort);
  return ordered.slice(skip, skip + limit);
}

/** A string `_id` equality pins at most one document, so the lookup skips the scan. */
function candidates(docs: Table, filter: Filter): Iterable<StoredDoc> {
  if (typeof filter._id !== "string") return docs.values();
  const doc = docs.get(filter._id);
  return doc === undefined ? [] : [doc];
}

/** Updates the first match (by `sort` when given) or, with `upsert`, inserts; checks unique indexes before writing. */
export function updateFirst(
  view: TableView,
  filter: Filter,
  update: Update,
  options: { upsert?: boolean; sort?: SortSpec },
  newId: () => string,
): UpdateOutcome {
  const parsed = parseUpdate(update);
  const [current] = findDocuments(view.docs, { filter, sort: options.sort, limit: 1 });
  if (current !== undefined) {
    const next = applyUpdate(current, parsed, false) as StoredDoc;
    if (valuesEqual(current, next)) return { before: current, after: current, matched: 1, modified: 0 };
    assertUniqueKeys(view.docs, view.indexes, next);
    view.docs.set(next._id, next);
    return { before: current, after: next, matched: 1, modified: 1 };
  }
  if (!options.upsert) return { before: null, after: null, matched: 0, modified: 0 };
  const inserted = insertDocument(view, buildUpsertDoc(filter, parsed, newId));
  return { before: null, after: inserted, matched: 0, modified: 0, upsertedId: inserted._id };
}

export function deleteDocuments(docs: Table, filter: Filter, limit?: 1): number {
  const doomed = findDocuments(docs, { filter, limit });
  for (const doc of doomed) docs.delete(doc._id);
  return doomed.length;
}
