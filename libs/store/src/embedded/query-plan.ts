import type { Filter, SortSpec } from "../port.js";
import { compareValues } from "./bson-values.js";
import { isOperatorObject } from "./filter-match.js";
import type { KeyBound, StoredIndex } from "./stored-index.js";

/**
 * Picks the index a query walks instead of scanning the whole table, the way MongoDB's planner
 * would for the port's filter subset: equalities on the index's leading fields, then an optional
 * range on the next field, and, when the sort follows the rest of the index (forwards or
 * backwards), an order that lets the walk stop at the limit.
 *
 * An index only narrows the candidates: every candidate is still matched against the whole
 * filter, so a plan can never change what a query returns, only how much it reads.
 */
export interface QueryPlan {
  index: StoredIndex;
  low: KeyBound;
  high: KeyBound;
  reverse: boolean;
  /** Whether the walk yields documents in the order the query's sort asks for. */
  ordered: boolean;
}

interface Bound {
  value: unknown;
  inclusive: boolean;
}

export function planQuery(indexes: Iterable<StoredIndex>, filter: Filter, sort: SortSpec | undefined): QueryPlan | undefined {
  let best: { plan: QueryPlan; score: number } | undefined;
  for (const index of indexes) {
    if (index.partial) continue;
    const candidate = planFor(index, filter, sort);
    if (candidate !== undefined && (best === undefined || candidate.score > best.score)) best = candidate;
  }
  return best?.plan;
}

function planFor(index: StoredIndex, filter: Filter, sort: SortSpec | undefined): { plan: QueryPlan; score: number } | undefined {
  const prefix: unknown[] = [];
  for (const field of index.fields) {
    const equal = equalityOperand(filter[field]);
    if (equal === undefined) break;
    prefix.push(equal.value);
  }
  const rangeField = index.fields[prefix.length];
  const range = rangeField === undefined ? undefined : rangeBounds(filter[rangeField]);
  const order = sort === undefined ? undefined : sortDirection(index, prefix.length, sort);
  const ordered = sort === undefined || order !== undefined;
  if (prefix.length === 0 && range === undefined && !(sort !== undefined && ordered)) return undefined;

  // In the index's order a descending field runs from its highest value to its lowest.
  const direction = rangeField === undefined ? 1 : (index.directions[prefix.length]);
  const [first, last] = direction === 1 ? [range?.lower, range?.upper] : [range?.upper, range?.lower];
  const low: KeyBound = first === undefined ? { values: prefix, after: false } : { values: [...prefix, first.value], after: !first.inclusive };
  const high: KeyBound = last === undefined ? { values: prefix, after: true } : { values: [...prefix, last.value], after: last.inclusive };
  const score = prefix.length * 100 + (sort !== undefined && ordered ? 50 : 0) + (range === undefined ? 0 : 10);
  return { plan: { index, low, high, reverse: order === -1, ordered }, score };
}

/** A condition that pins a field to one value: a plain scalar or `{ $eq: scalar }`. */
function equalityOperand(condition: unknown): { value: unknown } | undefined {
  const operand = isOperatorObject(condition) ? onlyEq(condition) : condition;
  return isScalar(operand) ? { value: operand } : undefined;
}

function onlyEq(condition: Record<string, unknown>): unknown {
  const keys = Object.keys(condition);
  return keys.length === 1 && keys[0] === "$eq" ? condition.$eq : undefined;
}

function isScalar(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean" || value instanceof Date) return true;
  return typeof value === "number" && !Number.isNaN(value);
}

/** The tightest lower and upper bounds that $gt/$gte/$lt/$lte put on a field, if any. */
function rangeBounds(condition: unknown): { lower?: Bound; upper?: Bound } | undefined {
  if (!isOperatorObject(condition)) return undefined;
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  for (const [operator, operand] of Object.entries(condition)) {
    if (!isScalar(operand) || operand === null) continue;
    if (operator === "$gt" || operator === "$gte") lower = tighter(lower, { value: operand, inclusive: operator === "$gte" }, 1);
    if (operator === "$lt" || operator === "$lte") upper = tighter(upper, { value: operand, inclusive: operator === "$lte" }, -1);
  }
  if (lower === undefined && upper === undefined) return undefined;
  return { ...(lower === undefined ? {} : { lower }), ...(upper === undefined ? {} : { upper }) };
}

/** Of two bounds on one side, the one that admits less (`side` 1 for lower bounds, -1 for upper). */
function tighter(current: Bound | undefined, next: Bound, side: 1 | -1): Bound {
  if (current === undefined) return next;
  const order = compareValues(next.value, current.value) * side;
  if (order !== 0) return order > 0 ? next : current;
  return current.inclusive ? next : current;
}

/**
 * 1 when the sort follows the index fields after the equality prefix, -1 when it follows them
 * reversed, undefined when the index order is not the sort's (or the index is multikey).
 */
function sortDirection(index: StoredIndex, prefixLength: number, sort: SortSpec): 1 | -1 | undefined {
  if (index.multikey) return undefined;
  const entries = Object.entries(sort);
  if (entries.length === 0 || prefixLength + entries.length > index.fields.length) return undefined;
  let relation: 1 | -1 | undefined;
  for (const [i, [field, direction]] of entries.entries()) {
    if (index.fields[prefixLength + i] !== field) return undefined;
    const same = direction === index.directions[prefixLength + i] ? 1 : -1;
    if (relation !== undefined && relation !== same) return undefined;
    relation = same;
  }
  return relation;
}
