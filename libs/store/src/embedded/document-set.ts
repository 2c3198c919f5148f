import { DuplicateKeyError, type Filter, type SortSpec, type Update } from "../port.js";
import { applyUpdate, buildUpsertDoc, modifiedIn, parseUpdate, touchedFields } from "./apply-update.js";
import { toBson } from "./bson-values.js";

export type StoredDoc = Record<string, unknown> & { _id: string };

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

/**
 * The synchronous operations of one collection (insert, update, upsert, delete), written once over
 * five primitives; `StagedTable` provides them over a stored table, staging what it writes.
 * Nothing here awaits, so an operation run under the store's lock matches and writes in one step.
 * Documents are never mutated in place: a write replaces the entry.
 */
export abstract class DocumentSet {
  abstract get(id: string): StoredDoc | undefined;
  abstract find(query: Query): StoredDoc[];
  /**
   * Throws DuplicateKeyError when `doc` (new, or replacing the document with its `_id`) breaks a
   * unique index; `touched`, for a replacement, names the only top-level fields that changed.
   */
  protected abstract assertUnique(doc: StoredDoc, touched?: ReadonlySet<string>): void;
  /** Writes `doc` in place of `before` (the stored document with its `_id`, if any, differing only in `touched`); uniqueness already checked. */
  protected abstract put(before: StoredDoc | undefined, doc: StoredDoc, touched?: ReadonlySet<string>): void;
  abstract delete(doc: StoredDoc): void;

  insert(input: object): StoredDoc {
    const id = (input as { _id?: unknown })._id;
    if (typeof id !== "string") throw new Error("Documents need a string _id");
    // Checked before the copy: a taken `_id` is the expected answer of a claim (an idempotency key).
    if (this.get(id) !== undefined) throw new DuplicateKeyError("_id_");
    // `_id` first, where MongoDB keeps it; the copy's own `_id` (the same string) lands in its place.
    const doc: StoredDoc = { _id: id, ...(toBson(input) as Record<string, unknown>) };
    this.assertUnique(doc);
    this.put(undefined, doc);
    return doc;
  }

  /** Updates the first match (by `sort` when given) or, with `upsert`, inserts; checks unique indexes before writing. */
  updateFirst(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec }, newId: () => string): UpdateOutcome {
    const parsed = parseUpdate(update);
    const [current] = this.find({ filter, sort: options.sort, limit: 1 });
    if (current !== undefined) {
      const next = applyUpdate(current, parsed, false) as StoredDoc;
      const touched = touchedFields(parsed);
      if (!modifiedIn(current, next, touched)) return { before: current, after: current, matched: 1, modified: 0 };
      this.assertUnique(next, touched);
      this.put(current, next, touched);
      return { before: current, after: next, matched: 1, modified: 1 };
    }
    if (!options.upsert) return { before: null, after: null, matched: 0, modified: 0 };
    const inserted = this.insert(buildUpsertDoc(filter, parsed, newId));
    return { before: null, after: inserted, matched: 0, modified: 0, upsertedId: inserted._id };
  }

  deleteMatching(filter: Filter, limit?: 1): number {
    const doomed = this.find({ filter, limit });
    for (const doc of doomed) this.delete(doc);
    return doomed.length;
  }
}
