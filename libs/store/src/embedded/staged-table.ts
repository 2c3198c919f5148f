import { DuplicateKeyError, type Filter } from "../port.js";
import { toBson } from "./bson-values.js";
import { DocumentSet, type Query, type StoredDoc } from "./document-set.js";
import { matchesFilter } from "./filter-match.js";
import { sortDocuments } from "./sort.js";
import type { StoredTable } from "./stored-table.js";

/**
 * A view of one stored table in which writes are staged, by `_id` (`null` for a delete), before
 * they are committed: every write of the store goes through one, in a transaction or not. Reads
 * see the committed documents with the staged ones in their place. Every write is checked against
 * both when it is made, and the store's lock keeps anything else from writing the table
 * meanwhile, so the commit (`StoredTable.commit`) is a plain apply that cannot break an index, and
 * an abort just drops the view.
 */
export class StagedTable extends DocumentSet {
  readonly writes = new Map<string, StoredDoc | null>();
  /** Each staged `_id`'s committed document (undefined when it had none), whose index entries the commit replaces. */
  readonly originals = new Map<string, StoredDoc | undefined>();
  /** The top-level fields the staged writes changed per `_id`; null when any may have. */
  readonly touched = new Map<string, Set<string> | null>();

  constructor(private readonly committed: StoredTable) {
    super();
  }

  get(id: string): StoredDoc | undefined {
    const staged = this.writes.get(id);
    if (staged !== undefined) return staged ?? undefined;
    return this.committed.get(id);
  }

  find(query: Query): StoredDoc[] {
    if (this.writes.size === 0) return this.committed.find(query);
    const filter = toBson(query.filter) as Filter;
    const skip = query.skip ?? 0;
    const limit = query.limit || Infinity;
    // Each staged write hides at most one committed match, so this many committed matches are
    // enough to fill the page once the staged documents have taken their places.
    const wanted = limit === Infinity ? 0 : skip + limit + this.writes.size;
    const matches = this.committed.find({ filter, sort: query.sort, limit: wanted }).filter((doc) => !this.writes.has(doc._id));
    for (const doc of this.writes.values()) if (doc !== null && matchesFilter(doc, filter)) matches.push(doc);
    const ordered = query.sort === undefined ? matches : sortDocuments(matches, query.sort);
    return ordered.slice(skip, skip + limit);
  }

  delete(doc: StoredDoc): void {
    this.remember(doc._id, doc, undefined);
    this.writes.set(doc._id, null);
  }

  protected assertUnique(doc: StoredDoc, touched?: ReadonlySet<string>): void {
    for (const index of this.committed.uniqueIndexes()) {
      if (!index.reads(touched)) continue;
      // A committed document the transaction rewrote or deleted no longer holds its old key.
      if (index.collisions(doc).some((id) => !this.writes.has(id))) throw new DuplicateKeyError(index.spec.name);
      for (const staged of this.writes.values()) {
        if (staged !== null && index.collide(staged, doc)) throw new DuplicateKeyError(index.spec.name);
      }
    }
  }

  protected put(before: StoredDoc | undefined, doc: StoredDoc, touched?: ReadonlySet<string>): void {
    this.remember(doc._id, before, touched);
    this.writes.set(doc._id, doc);
  }

  /** Notes the committed document the first write of `id` replaces, and the fields each write touched. */
  private remember(id: string, before: StoredDoc | undefined, touched: ReadonlySet<string> | undefined): void {
    if (!this.writes.has(id)) {
      this.originals.set(id, before);
      this.touched.set(id, touched === undefined ? null : new Set(touched));
      return;
    }
    const fields = this.touched.get(id);
    if (fields === null || fields === undefined) return;
    if (touched === undefined) this.touched.set(id, null);
    else for (const field of touched) fields.add(field);
  }
}
