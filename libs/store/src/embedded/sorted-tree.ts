import { createRequire } from "node:module";
import type sortedBtree from "sorted-btree";

/**
 * sorted-btree's B+ tree, for secondary indexes: sorted by a comparator and iterable from any key
 * in both directions. The package is CommonJS with its class on `exports.default`; loading it with `require`
 * finds it there the same way under Node and under the test runner's module transform.
 */
const { default: BTreeClass } = createRequire(import.meta.url)("sorted-btree") as typeof sortedBtree;

export const BTree = BTreeClass;
export type BTree<K, V> = InstanceType<typeof BTreeClass<K, V>>;
