import type { Db, IndexDescription } from "mongodb";
import type { IndexSpec } from "../port.js";
import { planIndexes, type IndexConflict, type IndexPlan, type ListedIndex } from "./index-plan.js";

/** A collection's declaration, gathered from every `collection(def)` call. */
export interface DeclaredIndexes {
  indexes: Map<string, IndexSpec>;
  retired: Set<string>;
}

/**
 * Declared indexes that cannot be built without taking a live one down (see `planIndexes`): the
 * process stops at start rather than change them, with one line per conflict naming the
 * collection, the index and the fix.
 */
export class IndexConflictError extends Error {
  constructor(readonly conflicts: readonly IndexConflict[]) {
    super(`MongoDB indexes conflict with their declarations:\n${conflicts.map((c) => `  ${c.collection}.${c.index} ${c.problem}`).join("\n")}`);
    this.name = "IndexConflictError";
  }
}

const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

const codeOf = (error: unknown): unknown => (typeof error === "object" && error !== null && "code" in error ? error.code : undefined);

/**
 * Plans every collection first and stops on any conflict before changing anything; then builds
 * every declared index that is missing, and only once all exist drops the retired ones, so a
 * query never goes without the index it is moving to.
 */
export async function ensureDeclaredIndexes(db: Db, declarations: ReadonlyMap<string, DeclaredIndexes>): Promise<void> {
  const plans: [string, IndexPlan][] = [];
  for (const [name, declaration] of declarations) {
    if (declaration.indexes.size === 0 && declaration.retired.size === 0) continue;
    const listed = await listIndexes(db, name);
    plans.push([name, planIndexes(name, listed, [...declaration.indexes.values()], [...declaration.retired])]);
  }
  const conflicts = plans.flatMap(([, plan]) => plan.conflicts);
  if (conflicts.length > 0) throw new IndexConflictError(conflicts);
  for (const [name, plan] of plans) {
    if (plan.create.length > 0) await db.collection(name).createIndexes(plan.create.map(toIndexDescription));
  }
  for (const [name, plan] of plans) {
    for (const index of plan.drop) {
      await db
        .collection(name)
        .dropIndex(index)
        .catch((error: unknown) => {
          // Another replica starting at the same time dropped it first.
          if (codeOf(error) !== INDEX_NOT_FOUND && codeOf(error) !== NAMESPACE_NOT_FOUND) throw error;
        });
    }
  }
}

async function listIndexes(db: Db, collection: string): Promise<ListedIndex[]> {
  try {
    return (await db.collection(collection).listIndexes().toArray()) as ListedIndex[];
  } catch (error) {
    if (codeOf(error) === NAMESPACE_NOT_FOUND) return [];
    throw error;
  }
}

function toIndexDescription(index: IndexSpec): IndexDescription {
  return {
    name: index.name,
    key: index.keys,
    ...(index.unique === undefined ? {} : { unique: index.unique }),
    ...(index.partial === undefined ? {} : { partialFilterExpression: index.partial }),
    ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
  };
}
