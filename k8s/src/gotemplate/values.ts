/**
 * Go values as the renderer models them. Helm reads values files through JSON, so every number
 * in .Values is a float64 (a JS number here); integers made by template literals or by int, add
 * and div are Go ints (a JS bigint here). The difference shows when printed: a float64 prints
 * like Go's %v (1000000 becomes 1e+06), which is why the chart pipes numbers through `int`.
 */

export type GoValue = string | number | bigint | boolean | null | GoValue[] | GoMap | GoStruct;
export interface GoMap {
  [key: string]: GoValue;
}

/** A Go struct (Helm's .Release, .Chart): reading a field it lacks is an error, unlike a map. */
export class GoStruct {
  constructor(
    readonly typeName: string,
    readonly fields: Readonly<Record<string, GoValue>>,
  ) {}
}

export function isMap(v: GoValue): v is GoMap {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof GoStruct);
}

/** Go's template truth: false, 0, nil, and empty strings, slices and maps are false. */
export function isTrue(v: GoValue): boolean {
  if (v === null) return false;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "boolean") return v;
  if (v instanceof GoStruct) return true;
  return Object.keys(v).length > 0;
}

/** fmt's %v of a float64: the shortest digits, in %e form when the exponent is below -4 or 6 and above. */
export function formatFloat(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "+Inf" : "-Inf";
  if (n === 0) return Object.is(n, -0) ? "-0" : "0";
  const [mantissa, exponentText] = n.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  // strconv.FormatFloat(n, 'g', -1, 64): %e when exp < -4 || exp >= 6 (the shortest form's eprec).
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, "0");
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${digits}`;
  }
  return String(n);
}

/** What {{ v }} prints (Helm turns Go's "<no value>" for nil into ""). */
export function printValue(v: GoValue): string {
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number") return formatFloat(v);
  if (typeof v === "bigint" || typeof v === "boolean") return String(v);
  throw new Error(`printing a ${describe(v)} is outside the subset (Go would print map[…] or […]); use toYaml`);
}

/** sprig's strval: a string as is, anything else as fmt's %v. */
export function strval(v: GoValue): string {
  if (v === null) return "<nil>";
  return printValue(v);
}

export function describe(v: GoValue): string {
  if (v === null) return "nil";
  if (typeof v === "number") return "float64";
  if (typeof v === "bigint") return "int";
  if (typeof v === "string" || typeof v === "boolean") return typeof v === "string" ? "string" : "bool";
  if (Array.isArray(v)) return "slice";
  if (v instanceof GoStruct) return v.typeName;
  return "map";
}

/** Go's eq on basic kinds; comparing an int with a float64, or a map, is an error as in Go. */
export function goEqual(a: GoValue, b: GoValue): boolean {
  const ka = describe(a);
  const kb = describe(b);
  if (!["string", "bool", "int", "float64"].includes(ka) || !["string", "bool", "int", "float64"].includes(kb)) {
    throw new Error(`eq of ${ka} and ${kb} is outside the subset`);
  }
  if (ka !== kb) throw new Error(`incompatible types for comparison: ${ka} and ${kb}`);
  return a === b;
}

/** A deep copy of parsed YAML/JSON data as Go values (numbers stay float64). */
export function toGoValue(data: unknown): GoValue {
  if (data === null || data === undefined) return null;
  if (typeof data === "string" || typeof data === "number" || typeof data === "boolean" || typeof data === "bigint") return data;
  if (Array.isArray(data)) return data.map(toGoValue);
  if (typeof data === "object") {
    const out: GoMap = {};
    for (const [k, v] of Object.entries(data)) out[k] = toGoValue(v);
    return out;
  }
  throw new Error(`cannot use ${typeof data} as a template value`);
}
