import type { Filter, Update } from "../port.js";
import { isDocument, toBson, valuesEqual } from "./bson-values.js";
import { getExact, setPath, unsetPath } from "./field-path.js";
import { isOperatorObject } from "./filter-match.js";
import type { StoredDoc } from "./document-set.js";

type Change =
  | { kind: "set"; path: string; value: unknown; onInsertOnly: boolean }
  | { kind: "unset"; path: string }
  | { kind: "inc"; path: string; amount: number };

/** A validated update, ready to apply; parsed up front so a bad update fails even when nothing matches. */
export type ParsedUpdate = readonly Change[];

/** Parses the port's update subset; rejects what MongoDB rejects (unknown operators, conflicting paths). */
export function parseUpdate(update: Update): ParsedUpdate {
  const operators = Object.entries(toBson(update) as Record<string, unknown>);
  if (operators.length === 0) throw new Error("An update needs at least one update operator");
  const changes: Change[] = [];
  for (const [operator, fields] of operators) {
    if (!isDocument(fields)) throw new Error(`${operator} takes an object of field paths`);
    for (const [path, value] of Object.entries(fields)) changes.push(toChange(operator, path, value));
  }
  assertNoConflicts(changes.map((change) => change.path));
  // MongoDB 5+ applies update fields in lexicographic order, which decides where new fields land.
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Returns an updated copy of `doc`; `inserting` is true when an upsert creates the document.
 * Stored documents are never mutated, so the copy shares every top-level field the update leaves
 * alone and deep-copies only those a dotted path writes into.
 */
export function applyUpdate(
  doc: Record<string, unknown>,
  update: ParsedUpdate,
  inserting: boolean,
): Record<string, unknown> {
  // Top-level $unset fields are left out of the copy (`delete` would turn it into a slow V8
  // dictionary); a field a dotted path writes into is deep-copied, the rest is shared.
  const dropped = new Set<string>();
  const nested = new Set<string>();
  for (const change of update) {
    if (change.path.includes(".")) nested.add(topField(change.path));
    else if (change.kind === "unset") dropped.add(change.path);
  }
  const next: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) if (!dropped.has(key)) next[key] = doc[key];
  for (const field of nested) if (field in next) next[field] = toBson(next[field]);
  for (const change of update) {
    if (change.kind === "unset") {
      if (!dropped.has(change.path)) unsetPath(next, change.path);
    } else if (change.kind === "inc") setPath(next, change.path, incremented(getExact(next, change.path), change));
    else if (inserting || !change.onInsertOnly) setPath(next, change.path, change.value);
  }
  if ("_id" in doc && !valuesEqual(doc._id, next._id)) {
    throw new Error("Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  // A nested $unset deleted inside the copied field: rebuild it as fresh objects too.
  if (update.some((change) => change.kind === "unset" && change.path.includes("."))) {
    for (const field of nested) if (field in next) next[field] = toBson(next[field]);
  }
  return next;
}

/** The top-level fields an update writes (the first segment of each path). */
export function touchedFields(update: ParsedUpdate): Set<string> {
  return new Set(update.map((change) => topField(change.path)));
}

/** Whether `after` (an update of `before`) differs from it in one of the `touched` top-level fields. */
export function modifiedIn(before: Record<string, unknown>, after: Record<string, unknown>, touched: ReadonlySet<string>): boolean {
  for (const field of touched) {
    if (field in before !== field in after || !valuesEqual(before[field], after[field])) return true;
  }
  return false;
}

function topField(path: string): string {
  const dot = path.indexOf(".");
  return dot === -1 ? path : path.slice(0, dot);
}

/**
 * The document an upsert inserts: the filter's equality conditions (top level and inside $and),
 * then the update with $setOnInsert; `_id` is generated when neither provides one.
 */
export function buildUpsertDoc(filter: Filter, update: ParsedUpdate, newId: () => string): StoredDoc {
  const seed: Record<string, unknown> = {};
  for (const [path, value] of equalityConditions(toBson(filter) as Filter)) setPath(seed, path, value);
  const built = applyUpdate(seed, update, true);
  const { _id = newId(), ...rest } = built;
  if (typeof _id !== "string") throw new Error("Documents need a string _id");
  return { _id, ...rest };
}

function equalityConditions(filter: Filter): Array<[string, unknown]> {
  return Object.entries(filter).flatMap(([key, condition]): Array<[string, unknown]> => {
    if (key === "$and" && Array.isArray(condition)) return condition.flatMap((part: Filter) => equalityConditions(part));
    if (key.startsWith("$")) return [];
    if (!isOperatorObject(condition)) return [[key, condition]];
    return "$eq" in condition ? [[key, condition.$eq]] : [];
  });
}

function toChange(operator: string, path: string, value: unknown): Change {
  switch (operator) {
    case "$set":
    case "$setOnInsert":
      return { kind: "set", path, value, onInsertOnly: operator === "$setOnInsert" };
    case "$unset":
      return { kind: "unset", path };
    case "$inc":
      if (typeof value !== "number") throw new Error(`$inc needs a number for '${path}'`);
      return { kind: "inc", path, amount: value };
    default:
      throw new Error(`Unsupported update operator ${operator}`);
  }
}

function incremented(current: unknown, change: { path: string; amount: number }): number {
  if (current === undefined) return change.amount;
  if (typeof current !== "number") throw new Error(`Cannot apply $inc to the non-numeric field '${change.path}'`);
  return current + change.amount;
}

/** Two operators may not touch the same path or a path inside another (MongoDB rejects the update). */
function assertNoConflicts(paths: string[]): void {
  // Without dotted paths the only conflict is one field named twice (by two operators).
  if (!paths.some((path) => path.includes("."))) {
    const fields = new Set(paths);
    if (fields.size === paths.length) return;
  }
  const seen = new Set<string>();
  for (const path of [...paths].sort((a, b) => a.split(".").length - b.split(".").length)) {
    const segments = path.split(".");
    for (let length = 1; length <= segments.length; length++) {
      const prefix = segments.slice(0, length).join(".");
      if (seen.has(prefix)) throw new Error(`Updating the path '${path}' would create a conflict at '${prefix}'`);
    }
    seen.add(path);
  }
}
