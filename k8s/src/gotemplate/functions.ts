/**
 * The functions of the subset: Go's builtins and the Sprig/Helm ones the chart uses, each with
 * the argument types Go would insist on (a float64 where Go wants an int is an error, as it is
 * for helm). `and` and `or` short-circuit, so the executor evaluates them itself.
 */
import { randomInt } from "node:crypto";
import { stringify } from "yaml";
import { describe, goEqual, isMap, isTrue, printValue, strval, type GoMap, type GoValue } from "./values.js";

export interface FunctionContext {
  include(name: string, data: GoValue): string;
  /** Helm's lookup: what the cluster holds (helm template and --dry-run get an empty map). */
  lookup(apiVersion: string, kind: string, namespace: string, name: string): GoMap;
}

type Fn = (ctx: FunctionContext, args: GoValue[]) => GoValue;

export const lazyFunctions = new Set(["and", "or"]);

function arity(name: string, args: GoValue[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    throw new Error(`${name}: wrong number of arguments: ${args.length}`);
  }
}

function str(name: string, v: GoValue): string {
  if (typeof v !== "string") throw new Error(`${name}: expected string; got ${describe(v)}`);
  return v;
}

function goInt(name: string, v: GoValue): bigint {
  if (typeof v !== "bigint") throw new Error(`${name}: expected int; got ${describe(v)}`);
  return v;
}

/** sprig's toInt64 (through spf13/cast): floats truncate, strings parse, nil is 0. */
function toInt64(name: string, v: GoValue): bigint {
  if (v === null) return 0n;
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return BigInt(Math.trunc(v));
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "string" && /^-?[0-9]+$/.test(v.trim())) return BigInt(v.trim());
  throw new Error(`${name}: cannot convert ${describe(v)} ${JSON.stringify(v)} to an integer`);
}

/** Go's %q for the strings a chart quotes; anything JSON would escape differently is refused. */
function goQuote(s: string): string {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s)) throw new Error("quote: control characters are outside the subset");
  return JSON.stringify(s);
}

/** sigs.k8s.io/yaml's Marshal, as Helm's toYaml uses it: keys sorted, via JSON, no final newline. */
function toYaml(v: GoValue): string {
  const json = JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? Number(x) : x))) as unknown;
  return stringify(json, { version: "1.1", sortMapEntries: true, lineWidth: 0 }).replace(/\n$/, "");
}

function indent(spaces: bigint, s: string): string {
  const pad = " ".repeat(Number(spaces));
  return pad + s.replaceAll("\n", `\n${pad}`);
}

/** Go's fmt.Sprintf for the verbs the chart uses: %s (strings), %d (ints), %v, %%. */
function printf(format: string, args: GoValue[]): string {
  let next = 0;
  const out = format.replace(/%([%sdv])/g, (_m, verb: string) => {
    if (verb === "%") return "%";
    if (next >= args.length) throw new Error(`printf: missing argument for %${verb}`);
    const arg = args[next++]!;
    if (verb === "s" && typeof arg !== "string") throw new Error(`printf: %s of ${describe(arg)}`);
    if (verb === "d" && typeof arg !== "bigint") throw new Error(`printf: %d of ${describe(arg)} (Go prints %!d(float64=…))`);
    return printValue(arg);
  });
  if (/%[^%sdv]/.test(format)) throw new Error(`printf: only %s, %d, %v and %% are in the subset: ${format}`);
  if (next !== args.length) throw new Error(`printf: ${args.length - next} extra argument(s)`);
  return out;
}

const alphaNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export const functions: Readonly<Record<string, Fn>> = {
  include(ctx, args) {
    arity("include", args, 2);
    return ctx.include(str("include", args[0]!), args[1]!);
  },
  lookup(ctx, args) {
    arity("lookup", args, 4);
    const [apiVersion, kind, namespace, name] = args.map((a) => str("lookup", a)) as [string, string, string, string];
    return ctx.lookup(apiVersion, kind, namespace, name);
  },
  required(_ctx, args) {
    arity("required", args, 2);
    const value = args[1]!;
    if (value === null || value === "") throw new Error(str("required", args[0]!));
    return value;
  },
  fail(_ctx, args) {
    arity("fail", args, 1);
    throw new Error(str("fail", args[0]!));
  },
  default(_ctx, args) {
    arity("default", args, 1, 2);
    return args.length === 2 && isTrue(args[1]!) ? args[1]! : args[0]!;
  },
  quote(_ctx, args) {
    return args.filter((a) => a !== null).map((a) => goQuote(strval(a))).join(" ");
  },
  printf(_ctx, args) {
    if (args.length === 0) throw new Error("printf: missing format");
    return printf(str("printf", args[0]!), args.slice(1));
  },
  b64enc(_ctx, args) {
    arity("b64enc", args, 1);
    return Buffer.from(str("b64enc", args[0]!), "utf8").toString("base64");
  },
  randAlphaNum(_ctx, args) {
    arity("randAlphaNum", args, 1);
    const n = Number(goInt("randAlphaNum", args[0]!));
    return Array.from({ length: n }, () => alphaNum[randomInt(alphaNum.length)]).join("");
  },
  toYaml(_ctx, args) {
    arity("toYaml", args, 1);
    return toYaml(args[0]!);
  },
  nindent(_ctx, args) {
    arity("nindent", args, 2);
    return `\n${indent(goInt("nindent", args[0]!), str("nindent", args[1]!))}`;
  },
  indent(_ctx, args) {
    arity("indent", args, 2);
    return indent(goInt("indent", args[0]!), str("indent", args[1]!));
  },
  dict(_ctx, args) {
    if (args.length % 2 !== 0) throw new Error("dict: an odd number of arguments");
    const out: GoMap = {};
    for (let i = 0; i < args.length; i += 2) out[strval(args[i]!)] = args[i + 1]!;
    return out;
  },
  index(_ctx, args) {
    if (args.length < 2) throw new Error("index: missing key");
    let v: GoValue = args[0]!;
    for (const key of args.slice(1)) {
      if (isMap(v) && typeof key === "string") v = Object.hasOwn(v, key) ? v[key]! : null;
      else if (Array.isArray(v) && typeof key === "bigint" && key >= 0n && key < BigInt(v.length)) v = v[Number(key)]!;
      else throw new Error(`index of ${describe(v)} with ${describe(key)} ${JSON.stringify(strval(key))}`);
    }
    return v;
  },
  eq(_ctx, args) {
    if (args.length < 2) throw new Error("eq: missing argument");
    return args.slice(1).some((b) => goEqual(args[0]!, b));
  },
  ne(_ctx, args) {
    arity("ne", args, 2);
    return !goEqual(args[0]!, args[1]!);
  },
  not(_ctx, args) {
    arity("not", args, 1);
    return !isTrue(args[0]!);
  },
  int(_ctx, args) {
    arity("int", args, 1);
    return toInt64("int", args[0]!);
  },
  add(_ctx, args) {
    return args.reduce<bigint>((sum, a) => sum + toInt64("add", a), 0n);
  },
  div(_ctx, args) {
    arity("div", args, 2);
    const divisor = toInt64("div", args[1]!);
    if (divisor === 0n) throw new Error("div: division by zero");
    return toInt64("div", args[0]!) / divisor;
  },
  // and/or are evaluated lazily by the executor; these entries only declare them.
  and() {
    throw new Error("and is evaluated by the executor");
  },
  or() {
    throw new Error("or is evaluated by the executor");
  },
};

export const functionNames: ReadonlySet<string> = new Set(Object.keys(functions));
