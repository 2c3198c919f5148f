import { DuplicateKeyError, type Filter, type IndexSpec, type SortSpec, type Update } from "../port.js";
import { applyUpdate, buildUpsertDoc, parseUpdate } from "./apply-update.js";
import { toBson, valuesEqual } from "./bson-values.js";
import { matchesFilter } from "./filter-match.js";
import { IndexTree } from "./index-tree.js";
import { planQuery } from "./query-plan.js";
import { sortDocuments } from "./sort.js";
import { BTree } from "./sorted-tree.js";

/**
 * One collection: documents by `_id` and its enforced secondary indexes, with the synchronous
 * operations on them. Nothing here awaits, so an operation run under the store's lock, or on a
 * transaction's private copy, matches and writes in one step. Stored documents are never mutated
 * in place (a write replaces the entry), and every structure is a copy-on-write B+ tree, which is
 * what lets a transaction work on an O(1) copy of a table.
 */

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

/** `_id`s are strings: a plain comparison instead of the tree's default, which handles any type. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class Table {
  private constructor(
    private readonly docs: BTree<string, StoredDoc>,
    /** The indexes `ensureIndexes` has put in force, by name; declared but not yet ensured ones do not count. */
    private readonly indexes: Map<string, IndexTree>,
  ) {}

  static empty(): Table {
    return new Table(new BTree<string, StoredDoc>(undefined, compareIds), new Map());
  }

  /** An O(1) copy-on-write copy: writes to either leave the other as it was. */
  clone(): Table {
    return new Table(this.docs.clone(), new Map([...this.indexes].map(([name, index]) => [name, index.clone()])));
  }

  /** Puts an index in force (built over the documents already stored); throws DuplicateKeyError if they break it. */
  enforce(spec: IndexSpec): void {
    if (this.indexes.get(spec.name)?.spec === spec) return;
    this.indexes.set(spec.name, IndexTree.build(spec, this.docs.values()));
  }

  /** The indexes in force, for maintenance jobs that walk one in order (TTL sweeps). */
  indexTrees(): Iterable<IndexTree> {
    return this.indexes.values();
  }

  get(id: string): StoredDoc | undefined {
    return this.docs.get(id);
  }

  insert(input: object): StoredDoc {
    const { _id, ...rest } = toBson(input) as Record<string, unknown>;
    if (typeof _id !== "string") throw new Error("Documents need a string _id");
    const doc: StoredDoc = { _id, ...rest };
    if (this.docs.has(_id)) throw new DuplicateKeyError("_id_");
    for (const index of this.indexes.values()) index.assertUnique(doc);
    this.docs.set(_id, doc);
    for (const index of this.indexes.values()) index.add(doc);
    return doc;
  }

  find(query: Query): StoredDoc[] {
    const filter = toBson(query.filter) as Filter;
    const sort = query.sort !== undefined && Object.keys(query.sort).length > 0 ? query.sort : undefined;
    const skip = query.skip ?? 0;
    // A limit of 0 means no limit, as in MongoDB.
    const limit = query.limit || Infinity;
    const plan = typeof filter._id === "string" ? undefined : planQuery(this.indexes.values(), filter, sort);
    const stopsEarly = sort === undefined || plan?.ordered === true;
    const matches: StoredDoc[] = [];
    const seen = plan?.index.multikey ? new Set<string>() : undefined;
    for (const doc of this.candidates(filter, plan)) {
      if (seen !== undefined) {
        if (seen.has(doc._id)) continue;
        seen.add(doc._id);
      }
      if (matchesFilter(doc, filter)) matches.push(doc);
      if (stopsEarly && matches.length >= skip + limit) break;
    }
    const ordered = stopsEarly || sort === undefined ? matches : sortDocuments(matches, sort);
    return ordered.slice(skip, skip + limit);
  }

  /** Updates the first match (by `sort` when given) or, with `upsert`, inserts; checks unique indexes before writing. */
  updateFirst(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec }, newId: () => string): UpdateOutcome {
    const parsed = parseUpdate(update);
    const [current] = this.find({ filter, sort: options.sort, limit: 1 });
    if (current !== undefined) {
      const next = applyUpdate(current, parsed, false) as StoredDoc;
      if (valuesEqual(current, next)) return { before: current, after: current, matched: 1, modified: 0 };
      for (const index of this.indexes.values()) index.assertUnique(next);
      this.docs.set(next._id, next);
      for (const index of this.indexes.values()) index.replace(current, next);
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

  delete(doc: StoredDoc): void {
    if (!this.docs.delete(doc._id)) return;
    for (const index of this.indexes.values()) index.remove(doc);
  }

  private *candidates(filter: Filter, plan: ReturnType<typeof planQuery>): Iterable<StoredDoc> {
    // A string `_id` equality pins at most one document.
    if (typeof filter._id === "string") {
      const doc = this.docs.get(filter._id);
      if (doc !== undefined) yield doc;
      return;
    }
    if (plan === undefined) {
      yield* this.docs.values();
      return;
    }
    for (const id of plan.index.ids(plan.low, plan.high, plan.reverse)) {
      const doc = this.docs.get(id);
      if (doc !== undefined) yield doc;
    }
  }
}
