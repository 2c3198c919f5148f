import { DuplicateKeyError, type Filter, type IndexSpec } from "../port.js";
import { toBson } from "./bson-values.js";
import { sameSpec, type Catalog, type IndexRecord } from "./catalog.js";
import type { Query, StoredDoc } from "./document-set.js";
import { matchesFilter } from "./filter-match.js";
import { documentKey, indexPrefix } from "./index-keys.js";
import type { LmdbEnvironment } from "./lmdb-environment.js";
import { planQuery, type QueryPlan } from "./query-plan.js";
import { sortDocuments } from "./sort.js";
import type { StagedTable } from "./staged-table.js";
import { StoredIndex } from "./stored-index.js";

/**
 * One collection as committed in LMDB: its documents (by `_id`, in `_id` order) and the indexes
 * in force (catalog.ts). Reads are synchronous LMDB reads and see the last commit, or, inside a
 * write transaction, that transaction's writes too. Nothing writes here but `commit`, which
 * applies what a `StagedTable` staged and checked, and `enforce` (ensureIndexes).
 */
export class StoredTable {
  private derivedFrom = -1;
  private indexList: StoredIndex[] = [];
  private uniqueList: StoredIndex[] = [];
  private multikeyChanged = false;

  constructor(
    private readonly env: LmdbEnvironment,
    private readonly catalog: Catalog,
    readonly name: string,
  ) {}

  /** The indexes in force; declared but not yet ensured ones do not count. */
  indexes(): readonly StoredIndex[] {
    this.derive();
    return this.indexList;
  }

  /** The unique indexes in force, for a staged view that checks its writes against them. */
  uniqueIndexes(): readonly StoredIndex[] {
    this.derive();
    return this.uniqueList;
  }

  get(id: string): StoredDoc | undefined {
    const record = this.catalog.get(this.name);
    if (record === undefined) return undefined;
    return this.env.documents.get(documentKey(record.id, id)) as StoredDoc | undefined;
  }

  find(query: Query): StoredDoc[] {
    const filter = toBson(query.filter) as Filter;
    if (typeof filter._id === "string") {
      // A string `_id` equality pins at most one document.
      const doc = this.get(filter._id);
      return doc !== undefined && !query.skip && matchesFilter(doc, filter) ? [doc] : [];
    }
    const record = this.catalog.get(this.name);
    if (record === undefined) return [];
    const sort = query.sort !== undefined && Object.keys(query.sort).length > 0 ? query.sort : undefined;
    const skip = query.skip ?? 0;
    // A limit of 0 means no limit, as in MongoDB.
    const limit = query.limit || Infinity;
    const plan = planQuery(this.indexes(), filter, sort);
    const stopsEarly = sort === undefined || plan?.ordered === true;
    const matches: StoredDoc[] = [];
    const seen = plan?.index.multikey ? new Set<string>() : undefined;
    for (const doc of this.candidates(record.id, plan)) {
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

  /** Inside a write transaction: applies the writes `staged` made and checked against this table. */
  commit(staged: StagedTable): void {
    if (staged.writes.size === 0) return;
    const record = this.catalog.register(this.name);
    const indexes = this.indexes();
    for (const [id, doc] of staged.writes) {
      const before = staged.originals.get(id);
      const key = documentKey(record.id, id);
      if (doc === null) {
        if (before === undefined) continue;
        this.env.documents.removeSync(key);
        for (const index of indexes) index.write(before, undefined);
      } else {
        this.env.documents.putSync(key, doc);
        const touched = before === undefined ? undefined : (staged.touched.get(id) ?? undefined);
        for (const index of indexes) if (index.reads(touched)) index.write(before, doc);
      }
    }
    this.saveMultikey();
  }

  /**
   * Inside a write transaction: puts `declared` in force, building each index that is new or
   * whose spec changed over the stored documents, and drops the `retired` ones. Throws
   * DuplicateKeyError when the documents break a new unique index (the transaction then aborts).
   */
  enforce(declared: readonly IndexSpec[], retired: readonly string[]): void {
    const current = this.catalog.get(this.name)?.indexes ?? [];
    const wanted = declared.map((spec) => toBson(spec) as IndexSpec);
    const toBuild = wanted.filter((spec) => !current.some((stored) => sameSpec(stored.spec, spec)));
    const toDrop = current.filter((stored) => retired.includes(stored.spec.name) || toBuild.some((spec) => spec.name === stored.spec.name));
    if (toBuild.length === 0 && toDrop.length === 0) return;
    const record = this.catalog.register(this.name);
    for (const stored of toDrop) new StoredIndex(this.env, stored, () => undefined).drop();
    const built: IndexRecord[] = toBuild.map((spec) => ({ id: this.catalog.allocateId(), spec, multikey: false }));
    for (const index of built.map((stored) => new StoredIndex(this.env, stored, () => undefined))) {
      // Read before writing: a cursor is not walked while its transaction writes.
      for (const doc of [...this.candidates(record.id, undefined)]) {
        if (index.collisions(doc).length > 0) throw new DuplicateKeyError(index.spec.name);
        index.write(undefined, doc);
      }
    }
    record.indexes = [...current.filter((stored) => !toDrop.includes(stored)), ...built];
    this.catalog.save(record);
  }

  private *candidates(collectionId: number, plan: QueryPlan | undefined): Iterable<StoredDoc> {
    if (plan === undefined) {
      const range = this.env.documents.getRange({ start: indexPrefix(collectionId), end: indexPrefix(collectionId + 1) });
      for (const { value } of range) yield value as StoredDoc;
      return;
    }
    for (const id of plan.index.ids(plan.low, plan.high, plan.reverse)) {
      const doc = this.env.documents.get(documentKey(collectionId, id)) as StoredDoc | undefined;
      if (doc !== undefined) yield doc;
    }
  }

  /** Rebuilds the index objects when the catalog changed since they were made. */
  private derive(): void {
    if (this.derivedFrom === this.catalog.version) return;
    const records = this.catalog.get(this.name)?.indexes ?? [];
    // An index object is kept while its record is the same object (`load` replaces them all).
    const kept = new Map(this.indexList.map((index) => [index.record, index]));
    this.indexList = records.map(
      (stored) => kept.get(stored) ?? new StoredIndex(this.env, stored, () => (this.multikeyChanged = true)),
    );
    this.uniqueList = this.indexList.filter((index) => index.spec.unique);
    this.derivedFrom = this.catalog.version;
  }

  /** Stores that an index became multikey, with the commit that made it so. */
  private saveMultikey(): void {
    if (!this.multikeyChanged) return;
    const record = this.catalog.get(this.name);
    if (record !== undefined) this.catalog.save(record);
    this.multikeyChanged = false;
  }
}
