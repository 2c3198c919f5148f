import type { IndexSpec } from "../port.js";
import type { IndexRecord } from "./catalog.js";
import type { StoredDoc } from "./document-set.js";
import { keysOf, reachableValues } from "./field-path.js";
import { matchesFilter } from "./filter-match.js";
import { encodeKey, idOffset, indexPrefix } from "./index-keys.js";
import { NO_VALUE, type LmdbEnvironment } from "./lmdb-environment.js";

/** A scan bound: the keys starting with `values`, from before the first (`after` false) or after the last. */
export interface KeyBound {
  values: readonly unknown[];
  after: boolean;
}

/**
 * LMDB keys can be at most 1978 bytes (lmdb-js's build); an entry longer than that is refused when
 * it is staged, before anything is written.
 */
const MAX_KEY_BYTES = 1978;

/**
 * One secondary index of a collection: its entries are LMDB keys in the `indexEntries`
 * sub-database (index id, field values, `_id`; see index-keys.ts). Keys follow MongoDB: a missing
 * field indexes as null, an array indexes each element (a "multikey" entry per combination), and a
 * partial index only holds the documents its filter matches.
 */
export class StoredIndex {
  readonly spec: IndexSpec;
  readonly fields: readonly string[];
  readonly directions: readonly (1 | -1)[];
  readonly prefix: Buffer;
  /** The top-level fields the keys read. */
  private readonly roots: readonly string[];

  constructor(
    private readonly env: LmdbEnvironment,
    readonly record: IndexRecord,
    /** Called the first time a document makes this index multikey, so the catalog is saved with the commit. */
    private readonly becameMultikey: () => void,
  ) {
    this.spec = record.spec;
    this.fields = Object.keys(record.spec.keys);
    this.directions = Object.values(record.spec.keys);
    this.prefix = indexPrefix(record.id);
    this.roots = [...new Set(this.fields.map((field) => field.split(".")[0]))];
  }

  get multikey(): boolean {
    return this.record.multikey;
  }

  get partial(): boolean {
    return this.spec.partial !== undefined;
  }

  /**
   * Whether a change of the `touched` top-level fields can change this index's entries (any
   * change can when `touched` is not given, or the index is partial: its filter decides coverage).
   */
  reads(touched: ReadonlySet<string> | undefined): boolean {
    return touched === undefined || this.partial || this.roots.some((root) => touched.has(root));
  }

  /** The `_id`s of other documents in this unique index with one of `doc`'s keys (committed ones, or in the open write transaction). */
  collisions(doc: StoredDoc): string[] {
    if (!this.spec.unique || !this.covers(doc)) return [];
    const ids: string[] = [];
    for (const values of this.valueCombinations(doc)) {
      const start = encodeKey(this.prefix, values, this.directions);
      const end = encodeKey(this.prefix, values, this.directions, undefined, true);
      for (const key of this.env.indexEntries.getKeys({ start, end })) {
        const id = key.toString("utf8", start.length);
        if (id !== doc._id) ids.push(id);
      }
    }
    return ids;
  }

  /** Whether two documents (not yet both stored) would collide in this unique index. */
  collide(a: StoredDoc, b: StoredDoc): boolean {
    if (!this.spec.unique || a._id === b._id || !this.covers(a) || !this.covers(b)) return false;
    const keysOfB = this.valueCombinations(b).map((values) => encodeKey(this.prefix, values, this.directions));
    return this.valueCombinations(a).some((values) => {
      const key = encodeKey(this.prefix, values, this.directions);
      return keysOfB.some((other) => other.equals(key));
    });
  }

  /** The entry keys `doc` has in this index (none when a partial index does not cover it). */
  entries(doc: StoredDoc): Buffer[] {
    if (!this.covers(doc)) return [];
    return this.valueCombinations(doc).map((values) => {
      const key = encodeKey(this.prefix, values, this.directions, doc._id);
      if (key.length > MAX_KEY_BYTES) {
        throw new Error(`An entry of index ${this.spec.name} would take ${key.length} bytes; LMDB keys hold at most ${MAX_KEY_BYTES}`);
      }
      return key;
    });
  }

  /** Inside a write transaction: moves `before`'s entries to `after`'s, writing only keys that changed. */
  write(before: StoredDoc | undefined, after: StoredDoc | undefined): void {
    const old = before === undefined ? [] : this.entries(before);
    const next = after === undefined ? [] : this.entries(after);
    for (const key of old) if (!next.some((other) => other.equals(key))) this.env.indexEntries.removeSync(key);
    for (const key of next) if (!old.some((other) => other.equals(key))) this.env.indexEntries.putSync(key, NO_VALUE);
  }

  /** Inside a write transaction: removes every entry of this index. */
  drop(): void {
    const end = Buffer.concat([this.prefix, Buffer.from([0xff])]);
    for (const key of [...this.env.indexEntries.getKeys({ start: this.prefix, end })]) this.env.indexEntries.removeSync(key);
  }

  /** The `_id`s of the entries between two bounds, in index order (or reversed). */
  *ids(low: KeyBound, high: KeyBound, reverse: boolean): Generator<string> {
    const lowKey = encodeKey(this.prefix, low.values, this.directions.slice(0, low.values.length), undefined, low.after);
    const highKey = encodeKey(this.prefix, high.values, this.directions.slice(0, high.values.length), undefined, high.after);
    if (Buffer.compare(lowKey, highKey) >= 0) return;
    // Entries from the lower bound (inclusive) to the upper one (exclusive): a bound equals an
    // entry only when that entry's `_id` is empty.
    const range = reverse
      ? this.env.indexEntries.getKeys({ start: highKey, end: lowKey, reverse: true, inclusiveEnd: true, exclusiveStart: true })
      : this.env.indexEntries.getKeys({ start: lowKey, end: highKey });
    for (const key of range) yield key.toString("utf8", idOffset(key, this.prefix.length, this.fields.length));
  }

  private covers(doc: StoredDoc): boolean {
    return this.spec.partial === undefined || matchesFilter(doc, this.spec.partial);
  }

  /** Every combination of the document's key values, one value per indexed field. */
  private valueCombinations(doc: StoredDoc): unknown[][] {
    let combinations: unknown[][] = [[]];
    for (const field of this.fields) {
      const reached = reachableValues(doc, field);
      const values = keysOf(reached);
      if (values.length === 1 && !Array.isArray(reached[0])) {
        for (const prefix of combinations) prefix.push(values[0]);
        continue;
      }
      // An array (even of one element) orders differently from its elements: no sorting by this index.
      if (!this.record.multikey) {
        this.record.multikey = true;
        this.becameMultikey();
      }
      combinations = combinations.flatMap((prefix) => values.map((value) => [...prefix, value]));
    }
    return combinations;
  }
}
