import { createRequire } from "node:module";
import type sortedBtree from "sorted-btree";

/**
 * sorted-btree's B+ tree: sorted by a comparator, iterable from any key in both directions, and
 * cloned in O(1) with copy-on-write, which is what lets a transaction stage writes on private
 * copies. The package is CommonJS with its class on `exports.default`; loading it with `require`
 * finds it there the same way under Node and under the test runner's module transform.
 */
const { default: BTreeClass } = createRequire(import.meta.url)("sorted-btree") as typeof sortedBtree;

export const BTree = BTreeClass;
export type BTree<K, V> = InstanceType<typeof BTreeClass<K, V>>;
