import type { IndexSpec } from "../port.js";

/** One entry of MongoDB's `listIndexes` answer, as far as the planner compares it. */
export interface ListedIndex {
  name: string;
  key: Record<string, unknown>;
  unique?: boolean;
  partialFilterExpression?: Record<string, unknown>;
  expireAfterSeconds?: number;
}

/** A declared index that cannot be built without taking a live one down; start stops on it. */
export interface IndexConflict {
  collection: string;
  index: string;
  /** What differs and how to change it safely, in one sentence. */
  problem: string;
}

/** What `ensureIndexes` does to one collection: build first, then drop. */
export interface IndexPlan {
  create: IndexSpec[];
  /** Retired indexes that exist: dropped only once every declared index of every collection exists. */
  drop: string[];
  conflicts: IndexConflict[];
}

const PRIMARY_KEY_INDEX = "_id_";

/**
 * Compares a collection's live indexes with its declaration, by name. An index that is declared
 * and absent is built; one declared and present as declared is left alone; one present under its
 * name with other keys (order counts), uniqueness, partial filter or TTL is a conflict, never
 * dropped and rebuilt: dropping a live unique index lets duplicates in, and old and new pods in a
 * rollout would flip it. The safe change is a new name, and the old one in `retiredIndexes` a
 * release later.
 * A new index declared exactly as a live index of another name is a conflict too: MongoDB
 * refuses to build an index twice under two names.
 */
export function planIndexes(collection: string, listed: readonly ListedIndex[], declared: readonly IndexSpec[], retired: readonly string[]): IndexPlan {
  const live = new Map(listed.map((index) => [index.name, index]));
  const plan: IndexPlan = { create: [], drop: [], conflicts: [] };
  const conflict = (index: string, problem: string) => plan.conflicts.push({ collection, index, problem });
  for (const spec of declared) {
    if (retired.includes(spec.name)) {
      conflict(spec.name, "is both declared and listed in retiredIndexes: remove it from one of them");
      continue;
    }
    const existing = live.get(spec.name);
    if (existing !== undefined) {
      const differences = differencesFrom(existing, spec);
      if (differences.length > 0) {
        conflict(
          spec.name,
          `exists with other ${differences.join(", ")} than declared; a live index is never dropped to be rebuilt: ` +
            `declare the changed index under a new name beside "${spec.name}", and list "${spec.name}" in retiredIndexes in a later release, ` +
            "once no pod still uses it (libs/store/README.md, MongoDB in production)",
        );
      }
      continue;
    }
    const twin = listed.find((index) => index.name !== PRIMARY_KEY_INDEX && differencesFrom(index, spec).length === 0);
    if (twin !== undefined) {
      conflict(spec.name, `is declared exactly as the live index "${twin.name}", and MongoDB builds an index only once: keep the name "${twin.name}"`);
      continue;
    }
    plan.create.push(spec);
  }
  for (const name of retired) {
    if (name === PRIMARY_KEY_INDEX) conflict(name, "cannot be retired: it is the primary key's index");
    else if (live.has(name) && !declared.some((spec) => spec.name === name)) plan.drop.push(name);
  }
  return plan;
}

/** Which of keys, uniqueness, partial filter and TTL differ between a live index and its declaration. */
function differencesFrom(existing: ListedIndex, spec: IndexSpec): string[] {
  const differences: string[] = [];
  if (!sameKeys(existing.key, spec.keys)) differences.push("keys");
  if ((existing.unique === true) !== (spec.unique === true)) differences.push("uniqueness");
  if (!sameValue(existing.partialFilterExpression, spec.partial)) differences.push("partial filter");
  if (existing.expireAfterSeconds !== spec.expireAfterSeconds) differences.push("TTL");
  return differences;
}

/** Key patterns are equal field for field in the same order: { a: 1, b: 1 } is not { b: 1, a: 1 }. */
function sameKeys(live: Record<string, unknown>, declared: Record<string, 1 | -1>): boolean {
  const liveEntries = Object.entries(live);
  const declaredEntries = Object.entries(declared);
  return liveEntries.length === declaredEntries.length && liveEntries.every(([field, direction], i) => {
    const [declaredField, declaredDirection] = declaredEntries[i] ?? [];
    return field === declaredField && Number(direction) === declaredDirection;
  });
}

/** BSON-like equality of filters: field order counts, as it does for the server. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aEntries = Object.entries(a);
  const bEntries = Object.entries(b);
  return aEntries.length === bEntries.length && aEntries.every(([key, value], i) => bEntries[i]?.[0] === key && sameValue(value, bEntries[i]?.[1]));
}
