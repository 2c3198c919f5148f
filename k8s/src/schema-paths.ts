/**
 * Where a values path (keys, "*" for any key or element) stands in values.schema.json: whether
 * the schema declares it and whether it may be left out; and the leaves of a values file.
 */
import { isMap } from "./chart.js";

type Schema = Record<string, unknown>;

export interface SchemaLookup {
  declared: boolean;
  /** Some key on the way is not in its parent's required list. */
  optional: boolean;
  /** How far the path was declared, when it was not. */
  declaredUpTo: string[];
}

function resolve(root: Schema, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const match = /^#\/definitions\/(.+)$/.exec(ref);
  const target = match ? (root.definitions as Record<string, Schema> | undefined)?.[match[1]] : undefined;
  if (!target) throw new Error(`unresolvable $ref ${ref}`);
  return resolve(root, target);
}

/** The schema itself and the branches of its allOf/anyOf/oneOf, references followed. */
function variants(root: Schema, schema: Schema): Schema[] {
  const s = resolve(root, schema);
  const branches = ["allOf", "anyOf", "oneOf"].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as Schema[]) : []));
  return [s, ...branches.flatMap((b) => variants(root, b))];
}

function children(root: Schema, schema: Schema, key: string): { schema: Schema; optional: boolean }[] {
  const out: { schema: Schema; optional: boolean }[] = [];
  for (const s of variants(root, schema)) {
    const properties = s.properties as Record<string, Schema> | undefined;
    const required = (s.required as string[] | undefined) ?? [];
    const additional = s.additionalProperties;
    if (key === "*") {
      if (s.items && typeof s.items === "object") out.push({ schema: s.items as Schema, optional: false });
      if (properties) for (const [k, p] of Object.entries(properties)) out.push({ schema: p, optional: !required.includes(k) });
      if (additional && typeof additional === "object") out.push({ schema: additional as Schema, optional: true });
    } else if (properties?.[key]) {
      out.push({ schema: properties[key], optional: !required.includes(key) });
    } else if (additional && typeof additional === "object") {
      out.push({ schema: additional as Schema, optional: true });
    } else if (!properties && additional === undefined && (s.type === "object" || Object.keys(s).every((k) => k === "description"))) {
      // A free-form object (affinity, tolerations' items): anything below it is allowed.
      out.push({ schema: {}, optional: true });
    }
  }
  return out;
}

export function lookupSchema(root: Schema, path: string[]): SchemaLookup {
  let current: Schema[] = [root];
  let optional = false;
  for (const [i, key] of path.entries()) {
    const next = current.flatMap((s) => children(root, s, key));
    if (next.length === 0) return { declared: false, optional, declaredUpTo: path.slice(0, i) };
    // Declared as required in any variant counts as required.
    if (next.every((n) => n.optional)) optional = true;
    current = next.map((n) => n.schema);
  }
  return { declared: true, optional, declaredUpTo: path };
}

/** Paths to every leaf (a scalar, an empty map or list); list elements as "*". */
export function valueLeaves(values: unknown, prefix: string[] = []): string[][] {
  if (Array.isArray(values)) return values.length === 0 ? [prefix] : values.flatMap((v) => valueLeaves(v, [...prefix, "*"]));
  if (isMap(values)) {
    const keys = Object.keys(values);
    return keys.length === 0 ? [prefix] : keys.flatMap((k) => valueLeaves(values[k], [...prefix, k]));
  }
  return [prefix];
}
