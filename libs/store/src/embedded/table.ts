import type { Filter, IndexSpec } from "../port.js";
import { toBson } from "./bson-values.js";
import { DocumentSet, type Query, type StoredDoc } from "./document-set.js";
import { matchesFilter } from "./filter-match.js";
import { IndexTree } from "./index-tree.js";
import { planQuery } from "./query-plan.js";
import { sortDocuments } from "./sort.js";

/**
 * One collection as committed: documents by `_id` (a hash map, in insertion order, MongoDB's
 * natural order) and its enforced secondary indexes (B+ trees), written in place. A transaction
 * never writes here until it commits: it stages its writes in a `StagedTable` over this one, which
 * `applyStaged` then applies in one synchronous step.
 */

export type { Query, StoredDoc } from "./document-set.js";

export class Table extends DocumentSet {
  private unique: readonly IndexTree[] = [];

  private constructor(
    private readonly docs: Map<string, StoredDoc>,
    /** The indexes `ensureIndexes` has put in force, by name; declared but not yet ensured ones do not count. */
    private readonly indexes: Map<string, IndexTree>,
  ) {
    super();
  }

  static empty(): Table {
    return new Table(new Map(), new Map());
  }

  /** Puts indexes in force (built over the documents already stored); throws DuplicateKeyError if they break one. */
  enforce(specs: Iterable<IndexSpec>): void {
    // Every new index is built before any is put in force, so one the documents break changes nothing.
    const built = [...specs]
      .filter((spec) => this.indexes.get(spec.name)?.spec !== spec)
      .map((spec) => IndexTree.build(spec, this.docs.values()));
    for (const index of built) this.indexes.set(index.spec.name, index);
    this.unique = [...this.indexes.values()].filter((index) => index.spec.unique);
  }

  /** The indexes in force, for maintenance jobs that walk one in order (TTL sweeps). */
  indexTrees(): Iterable<IndexTree> {
    return this.indexes.values();
  }

  get(id: string): StoredDoc | undefined {
    return this.docs.get(id);
  }

  find(query: Query): StoredDoc[] {
    const filter = toBson(query.filter) as Filter;
    if (typeof filter._id === "string") {
      // A string `_id` equality pins at most one document.
      const doc = this.docs.get(filter._id);
      return doc !== undefined && !query.skip && matchesFilter(doc, filter) ? [doc] : [];
    }
    const sort = query.sort !== undefined && Object.keys(query.sort).length > 0 ? query.sort : undefined;
    const skip = query.skip ?? 0;
    // A limit of 0 means no limit, as in MongoDB.
    const limit = query.limit || Infinity;
    const plan = planQuery(this.indexes.values(), filter, sort);
    const stopsEarly = sort === undefined || plan?.ordered === true;
    const matches: StoredDoc[] = [];
    const seen = plan?.index.multikey ? new Set<string>() : undefined;
    for (const doc of this.candidates(plan)) {
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

  /** The unique indexes in force, for a staged view that checks its writes against them. */
  uniqueIndexes(): readonly IndexTree[] {
    return this.unique;
  }

  protected assertUnique(doc: StoredDoc, touched?: ReadonlySet<string>): void {
    for (const index of this.unique) if (index.reads(touched)) index.assertUnique(doc);
  }

  protected put(before: StoredDoc | undefined, doc: StoredDoc, touched?: ReadonlySet<string>): void {
    this.docs.set(doc._id, doc);
    for (const index of this.indexes.values()) {
      if (before === undefined) index.add(doc);
      else if (index.reads(touched)) index.replace(before, doc);
    }
  }

  /** Applies writes a transaction staged and validated against this table (`null` deletes). */
  applyStaged(writes: ReadonlyMap<string, StoredDoc | null>): void {
    for (const [id, doc] of writes) {
      const before = this.docs.get(id);
      if (doc !== null) this.put(before, doc);
      else if (before !== undefined) this.delete(before);
    }
  }

  delete(doc: StoredDoc): void {
    if (!this.docs.delete(doc._id)) return;
    for (const index of this.indexes.values()) index.remove(doc);
  }

  private *candidates(plan: ReturnType<typeof planQuery>): Iterable<StoredDoc> {
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
