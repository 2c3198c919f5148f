import type { Filter } from "../port.js";
import { compareValues, isDocument, sameTypeBracket, valuesEqual } from "./bson-values.js";
import { reachableValues } from "./field-path.js";

/**
 * Evaluates the port's filter subset with MongoDB's semantics: a condition on a field holds when
 * it holds for any value the path reaches or any element of a reached array, `null` equality also
 * matches a missing field, and range operators only compare values of the same BSON type.
 */
export function matchesFilter(doc: unknown, filter: Filter): boolean {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and") {
      if (!subFilters(key, condition).every((part) => matchesFilter(doc, part))) return false;
    } else if (key === "$or") {
      if (!subFilters(key, condition).some((part) => matchesFilter(doc, part))) return false;
    } else if (key.startsWith("$")) {
      throw new Error(`Unsupported filter operator ${key}`);
    } else if (!matchesCondition(reachableValues(doc, key), condition)) {
      return false;
    }
  }
  return true;
}

/** An object whose keys are operators ({ $gt: 1 }) rather than an embedded document to compare with. */
export function isOperatorObject(condition: unknown): condition is Record<string, unknown> {
  if (!isDocument(condition)) return false;
  const keys = Object.keys(condition);
  const operators = keys.filter((key) => key.startsWith("$")).length;
  if (operators > 0 && operators < keys.length) {
    throw new Error(`A filter condition cannot mix operators and fields: ${keys.join(", ")}`);
  }
  return operators > 0;
}

function subFilters(operator: string, condition: unknown): Filter[] {
  if (!Array.isArray(condition) || condition.length === 0 || !condition.every(isDocument)) {
    throw new Error(`${operator} takes a non-empty array of filters`);
  }
  return condition;
}

function matchesCondition(values: unknown[], condition: unknown): boolean {
  if (!isOperatorObject(condition)) return equals(values, condition);
  return Object.entries(condition).every(([operator, operand]) => matchesOperator(values, operator, operand));
}

function matchesOperator(values: unknown[], operator: string, operand: unknown): boolean {
  switch (operator) {
    case "$eq":
      return equals(values, operand);
    case "$ne":
      return !equals(values, operand);
    case "$in":
      return listOperand(operator, operand).some((candidate) => equals(values, candidate));
    case "$nin":
      return !listOperand(operator, operand).some((candidate) => equals(values, candidate));
    case "$gt":
      return anyValue(values, (value) => sameTypeBracket(value, operand) && compareValues(value, operand) > 0);
    case "$gte":
      return anyValue(values, (value) => sameTypeBracket(value, operand) && compareValues(value, operand) >= 0);
    case "$lt":
      return anyValue(values, (value) => sameTypeBracket(value, operand) && compareValues(value, operand) < 0);
    case "$lte":
      return anyValue(values, (value) => sameTypeBracket(value, operand) && compareValues(value, operand) <= 0);
    case "$exists":
      return values.some((value) => value !== undefined) === Boolean(operand);
    default:
      throw new Error(`Unsupported filter operator ${operator}`);
  }
}

function equals(values: unknown[], operand: unknown): boolean {
  return anyValue(values, (value) => valuesEqual(value, operand));
}

/** A reached array matches as a whole or through any of its elements. */
function anyValue(values: unknown[], test: (value: unknown) => boolean): boolean {
  return values.some((value) => test(value) || (Array.isArray(value) && value.some(test)));
}

function listOperand(operator: string, operand: unknown): unknown[] {
  if (!Array.isArray(operand)) throw new Error(`${operator} takes an array`);
  return operand;
}
