/**
 * Which values the templates read, found from the syntax tree rather than by rendering, so that
 * branches no test values switch on are covered too. Dot and variables are followed
 * symbolically: `range $name, $c := .Values.components` makes $c stand for
 * .Values.components.*, `with .Values.x` makes dot .Values.x, `include "t" (dict "root" $ …)`
 * analyses "t" with its dot bound to that dict, and `$` inside a define is what it was included
 * with. A path is a list of keys where "*" is any key of a map or any element of a list.
 */
import type { Node, Operand, Pipeline } from "./gotemplate/ast.js";
import type { Chart } from "./chart.js";

type Sym = { k: "root" } | { k: "values"; path: string[] } | { k: "dict"; entries: Record<string, Sym> } | { k: "other" };

export interface TemplateReads {
  /** Every .Values path read (with "*" for range elements). */
  values: string[][];
  /** Fields of the root other than Values, e.g. "Release.Name". */
  rootFields: string[];
  /** Problems found on the way (an include of an unknown template, a dict key never set, …). */
  problems: string[];
}

const other: Sym = { k: "other" };

export function findTemplateReads(chart: Chart): TemplateReads {
  const values = new Map<string, string[]>();
  const rootFields = new Set<string>();
  const problems: string[] = [];
  const analysed = new Set<string>();

  const access = (sym: Sym, chain: string[], where: string): Sym => {
    if (chain.length === 0) return sym;
    switch (sym.k) {
      case "root":
        if (chain[0] === "Values") {
          const path = chain.slice(1);
          if (path.length > 0) values.set(path.join("\u0000"), path);
          return { k: "values", path };
        }
        rootFields.add(chain.join("."));
        return other;
      case "values": {
        const path = [...sym.path, ...chain];
        values.set(path.join("\u0000"), path);
        return { k: "values", path };
      }
      case "dict": {
        const entry = sym.entries[chain[0]!];
        if (!entry) {
          problems.push(`${where}: reads .${chain[0]} of a dict that has no such key`);
          return other;
        }
        return access(entry, chain.slice(1), where);
      }
      case "other":
        return other;
    }
  };

  type Scope = Map<string, Sym>;

  const operand = (o: Operand, dot: Sym, vars: Scope, where: string, piped: Sym | undefined, rest: Operand[]): Sym => {
    switch (o.kind) {
      case "dot":
        return dot;
      case "field":
        return access(dot, o.chain, where);
      case "variable": {
        const v = vars.get(o.name);
        if (!v) {
          problems.push(`${where}: undefined variable ${o.name}`);
          return other;
        }
        return access(v, o.chain, where);
      }
      case "pipeline":
        return pipeline(o.pipeline, dot, vars, where);
      case "function": {
        const args = rest.map((a) => operand(a, dot, vars, where, undefined, []));
        if (piped) args.push(piped);
        if (o.name === "dict") {
          const entries: Record<string, Sym> = {};
          for (let i = 0; i + 1 < rest.length; i += 2) {
            const key = rest[i]!;
            if (key.kind !== "string") problems.push(`${where}: dict keys must be string literals here`);
            else entries[key.value] = args[i + 1]!;
          }
          return { k: "dict", entries };
        }
        if (o.name === "include") {
          const name = rest[0];
          if (name?.kind !== "string") problems.push(`${where}: include needs a literal template name`);
          else include(name.value, args[1] ?? other, where);
          return other;
        }
        if (o.name === "index") {
          const keys = rest.slice(1);
          if (keys.every((k) => k.kind === "string")) return access(args[0]!, keys.map((k) => (k as { value: string }).value), where);
        }
        return other;
      }
      default:
        return other;
    }
  };

  const pipeline = (p: Pipeline, dot: Sym, vars: Scope, where: string): Sym => {
    let piped: Sym | undefined;
    for (const command of p.commands) {
      const [first, ...rest] = command.operands;
      piped = first!.kind === "function" ? operand(first!, dot, vars, where, piped, rest) : operand(first!, dot, vars, where, undefined, []);
    }
    return piped!;
  };

  const walk = (nodes: Node[], dot: Sym, outer: Scope): void => {
    const vars: Scope = new Map(outer);
    for (const node of nodes) {
      const where = `${node.type !== "text" ? `${node.pipeline.pos.file}:${node.pipeline.pos.line}` : ""}`;
      switch (node.type) {
        case "text":
          break;
        case "action": {
          const sym = pipeline(node.pipeline, dot, vars, where);
          for (const name of node.pipeline.variables) vars.set(name, sym);
          break;
        }
        case "if":
        case "with": {
          const inner: Scope = new Map(vars);
          const sym = pipeline(node.pipeline, dot, inner, where);
          for (const name of node.pipeline.variables) inner.set(name, sym);
          walk(node.then, node.type === "with" ? sym : dot, inner);
          walk(node.otherwise, dot, inner);
          break;
        }
        case "range": {
          const inner: Scope = new Map(vars);
          const sym = pipeline(node.pipeline, dot, inner, where);
          const element: Sym = sym.k === "values" ? { k: "values", path: [...sym.path, "*"] } : other;
          const [first, second] = node.pipeline.variables;
          if (second !== undefined) {
            inner.set(first!, other);
            inner.set(second, element);
          } else if (first !== undefined) {
            inner.set(first, element);
          }
          walk(node.then, element, inner);
          walk(node.otherwise, dot, inner);
          break;
        }
      }
    }
  };

  const include = (name: string, data: Sym, where: string): void => {
    const body = chart.defines.get(name);
    if (!body) {
      problems.push(`${where}: include of an undefined template "${name}"`);
      return;
    }
    const key = `${name}\u0000${JSON.stringify(data)}`;
    if (analysed.has(key)) return;
    analysed.add(key);
    walk(body, data, new Map([["$", data]]));
  };

  const root: Sym = { k: "root" };
  for (const parsed of chart.templates.values()) walk(parsed.body, root, new Map([["$", root]]));
  const used = new Set([...analysed].map((key) => key.split("\u0000")[0]));
  for (const name of chart.defines.keys()) if (!used.has(name)) problems.push(`template "${name}" is defined but never included`);
  return { values: [...values.values()], rootFields: [...rootFields].sort(), problems };
}
