import type { Filter, IndexSpec, SortSpec } from "../port.js";
import { toBson } from "../embedded/bson-values.js";
import { planQuery } from "../embedded/query-plan.js";
import { StoredIndex } from "../embedded/stored-index.js";

/**
 * The name of the index the embedded store would walk for this query over a collection with
 * these indexes (undefined: a full scan), as its planner decides (query-plan.ts). An index is
 * multikey once a document holds an array in one of its fields: name those in `multikey`.
 * Lets a repository's tests hold that each of its query shapes walks the index meant for it.
 */
export function plannedIndex(indexes: readonly IndexSpec[], filter: Filter, sort?: SortSpec, multikey: readonly string[] = []): string | undefined {
  // Planning reads only the specs; the LMDB environment is never touched.
  const stored = indexes.map(
    (spec, n) => new StoredIndex(undefined as never, { id: n + 1, spec, multikey: multikey.includes(spec.name) }, () => undefined),
  );
  return planQuery(stored, toBson(filter) as Filter, sort)?.index.spec.name;
}
