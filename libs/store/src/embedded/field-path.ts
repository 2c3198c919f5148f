import { isDocument } from "./bson-values.js";

/**
 * Dotted field paths. Reads fan out through arrays the way MongoDB queries do ("items.sku"
 * reaches the `sku` of every element of `items`); writes walk plain objects and numeric array
 * positions only.
 */

/** Every value a dotted path reaches in `value`; `undefined` stands for a branch where the field is missing. */
export function reachableValues(value: unknown, path: string): unknown[] {
  // A top-level field of a document (most paths, most calls) reaches exactly its value.
  if (!path.includes(".") && isDocument(value)) return [value[path]];
  return reach(value, path.split("."), 0);
}

/** The values an index or sort sees at `path`: reachable values with arrays replaced by their elements. */
export function keyValues(value: unknown, path: string): unknown[] {
  return keysOf(reachableValues(value, path));
}

/** Reachable values as keys: arrays replaced by their elements, an empty result by one missing value. */
export function keysOf(reached: unknown[]): unknown[] {
  if (reached.length === 1 && !Array.isArray(reached[0])) return reached;
  const keys = reached.flatMap((found) => (Array.isArray(found) ? (found as unknown[]) : [found]));
  return keys.length === 0 ? [undefined] : keys;
}

/** The values `segments` from position `from` on reach in `value`. */
function reach(value: unknown, segments: readonly string[], from: number): unknown[] {
  if (from === segments.length) return [value];
  const segment = segments[from];
  if (Array.isArray(value)) {
    if (isArrayIndex(segment)) return reach(value[Number(segment)], segments, from + 1);
    if (value.length === 0) return [undefined];
    return value.flatMap((item: unknown) => (isDocument(item) ? reach(item, segments, from) : [undefined]));
  }
  if (isDocument(value)) return reach(value[segment], segments, from + 1);
  return [undefined];
}

/** The single value at `path`, without fanning out (for $inc). */
export function getExact(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split(".")) {
    if (Array.isArray(current) && isArrayIndex(segment)) current = current[Number(segment)];
    else if (isDocument(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** Sets `path`, creating missing intermediate objects; refuses to overwrite a scalar on the way, as MongoDB does. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  if (!path.includes(".")) {
    target[path] = value;
    return;
  }
  const segments = path.split(".");
  const leaf = segments.pop() as string;
  let container: unknown = target;
  for (const segment of segments) {
    let next = readChild(container, segment, path);
    if (next === undefined) {
      next = {};
      writeChild(container, segment, next, path);
    }
    container = next;
  }
  writeChild(container, leaf, value, path);
}

export function unsetPath(target: Record<string, unknown>, path: string): void {
  const segments = path.split(".");
  const leaf = segments.pop() as string;
  let container: unknown = target;
  for (const segment of segments) {
    if (Array.isArray(container) && isArrayIndex(segment)) container = container[Number(segment)];
    else if (isDocument(container)) container = container[segment];
    else return;
  }
  // $unset on an array element leaves a null in its place, so positions do not shift.
  if (Array.isArray(container) && isArrayIndex(leaf) && Number(leaf) < container.length) container[Number(leaf)] = null;
  else if (isDocument(container)) delete container[leaf];
}

function readChild(container: unknown, segment: string, path: string): unknown {
  if (Array.isArray(container)) {
    if (!isArrayIndex(segment)) throw new Error(`Cannot create field '${segment}' in an array for update path '${path}'`);
    return container[Number(segment)];
  }
  if (isDocument(container)) return container[segment];
  throw new Error(`Cannot create field '${segment}' in a non-object value for update path '${path}'`);
}

function writeChild(container: unknown, segment: string, value: unknown, path: string): void {
  if (Array.isArray(container)) {
    if (!isArrayIndex(segment)) throw new Error(`Cannot create field '${segment}' in an array for update path '${path}'`);
    const position = Number(segment);
    // MongoDB pads with nulls when a position beyond the end is set.
    while (container.length < position) container.push(null);
    container[position] = value;
  } else if (isDocument(container)) {
    container[segment] = value;
  } else {
    throw new Error(`Cannot create field '${segment}' in a non-object value for update path '${path}'`);
  }
}

function isArrayIndex(segment: string): boolean {
  return /^\d+$/.test(segment);
}
