import { DuplicateKeyError, type IndexSpec } from "../port.js";
import { compareValues } from "./bson-values.js";
import { keysOf, reachableValues } from "./field-path.js";
import { matchesFilter } from "./filter-match.js";
import { LOW, keyComparator, type IndexKey } from "./index-key.js";
import { BTree } from "./sorted-tree.js";
import type { StoredDoc } from "./table.js";

/**
 * One secondary index of a table: a B+ tree of keys (field values, then `_id`). Keys follow
 * MongoDB: a missing field indexes as null, an array indexes each element (a "multikey" entry
 * per combination), and a partial index only holds the documents its filter matches.
 */
export class IndexTree {
  readonly fields: readonly string[];
  readonly directions: readonly (1 | -1)[];
  readonly compare: (a: IndexKey, b: IndexKey) => number;
  /** The top-level fields the keys read. */
  private readonly roots: readonly string[];
  /**
   * Whether some document ever gave more than one key or an array value: such an index still
   * finds candidates, but its order is not the order a sort on those fields asks for.
   */
  multikey: boolean;

  private constructor(
    readonly spec: IndexSpec,
    readonly tree: BTree<IndexKey, undefined>,
    multikey: boolean,
  ) {
    this.fields = Object.keys(spec.keys);
    this.directions = Object.values(spec.keys);
    this.roots = [...new Set(this.fields.map((field) => field.split(".")[0] as string))];
    this.compare = tree._compare;
    this.multikey = multikey;
  }

  /** Builds the index over `docs`; throws DuplicateKeyError when they break its uniqueness. */
  static build(spec: IndexSpec, docs: Iterable<StoredDoc>): IndexTree {
    const index = new IndexTree(spec, new BTree<IndexKey, undefined>(undefined, keyComparator(Object.values(spec.keys))), false);
    for (const doc of docs) {
      index.assertUnique(doc);
      index.add(doc);
    }
    return index;
  }

  /**
   * Whether a change of the `touched` top-level fields can change this index's entries (any
   * change can when `touched` is not given, or the index is partial: its filter decides coverage).
   */
  reads(touched: ReadonlySet<string> | undefined): boolean {
    return touched === undefined || this.partial || this.roots.some((root) => touched.has(root));
  }

  get partial(): boolean {
    return this.spec.partial !== undefined;
  }

  /** Throws DuplicateKeyError when `doc` (new, or replacing the document with its `_id`) collides. */
  assertUnique(doc: StoredDoc): void {
    if (this.collisions(doc).length > 0) throw new DuplicateKeyError(this.spec.name);
  }

  /** The `_id`s of the other documents in this unique index with one of `doc`'s keys. */
  collisions(doc: StoredDoc): string[] {
    if (!this.spec.unique || !this.covers(doc)) return [];
    const ids: string[] = [];
    // Stepping from key to key: a check usually finds nothing, and an iterator costs more than the lookup.
    const pair: [IndexKey, undefined] = [[], undefined];
    for (const values of this.valueCombinations(doc)) {
      let next = this.tree.nextHigherPair([...values, LOW], pair);
      while (next !== undefined && sameValues(next[0], values, values.length)) {
        const id = next[0][values.length] as string;
        if (id !== doc._id) ids.push(id);
        next = this.tree.nextHigherPair(next[0], pair);
      }
    }
    return ids;
  }

  /** Whether two documents (not yet both in the tree) would collide in this unique index. */
  collide(a: StoredDoc, b: StoredDoc): boolean {
    if (!this.spec.unique || a._id === b._id || !this.covers(a) || !this.covers(b)) return false;
    const keysOfB = this.valueCombinations(b);
    return this.valueCombinations(a).some((values) => keysOfB.some((other) => sameValues(values, other, values.length)));
  }

  add(doc: StoredDoc): void {
    if (!this.covers(doc)) return;
    for (const values of this.valueCombinations(doc)) this.tree.set([...values, doc._id], undefined);
  }

  remove(doc: StoredDoc): void {
    if (!this.covers(doc)) return;
    for (const values of this.valueCombinations(doc)) this.tree.delete([...values, doc._id]);
  }

  /** Moves `before`'s entries to `after`'s (same `_id`), touching the tree only when a key changed. */
  replace(before: StoredDoc, after: StoredDoc): void {
    const old = this.covers(before) ? this.valueCombinations(before) : [];
    const next = this.covers(after) ? this.valueCombinations(after) : [];
    if (old.length === next.length && old.every((values, i) => sameValues(values, next[i] as unknown[], values.length))) return;
    for (const values of old) this.tree.delete([...values, before._id]);
    for (const values of next) this.tree.set([...values, after._id], undefined);
  }

  /** The `_id`s of the entries between two bounds, in index order (or reversed). */
  *ids(low: IndexKey, high: IndexKey, reverse: boolean): Generator<string> {
    const idPosition = this.fields.length;
    if (reverse) {
      for (const [key] of this.tree.entriesReversed(high)) {
        if (this.compare(key, low) < 0) return;
        yield key[idPosition] as string;
      }
    } else {
      for (const [key] of this.tree.entries(low)) {
        if (this.compare(key, high) > 0) return;
        yield key[idPosition] as string;
      }
    }
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
      this.multikey = true;
      combinations = combinations.flatMap((prefix) => values.map((value) => [...prefix, value]));
    }
    return combinations;
  }
}

/** Whether two keys hold equal values (BSON equality) in their first `length` positions. */
function sameValues(a: readonly unknown[], b: readonly unknown[], length: number): boolean {
  for (let i = 0; i < length; i++) if (compareValues(a[i], b[i]) !== 0) return false;
  return true;
}
