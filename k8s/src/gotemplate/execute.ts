/**
 * Executes parsed templates with Go's semantics for the subset: map keys that are missing read as
 * nil (Helm's missingkey=zero), a field of nil or of a struct that lacks it is an error, range
 * over a map goes in key order, variables are scoped to their block, and $ is the data a
 * template was executed (or included) with.
 */
import type { Command, Node, Operand, Pipeline, Pos } from "./ast.js";
import { functions, lazyFunctions, type FunctionContext } from "./functions.js";
import { TemplateError } from "./parse.js";
import { GoStruct, describe, isMap, isTrue, printValue, type GoMap, type GoValue } from "./values.js";

interface Variable {
  name: string;
  value: GoValue;
}

export interface ExecuteOptions {
  lookup?: FunctionContext["lookup"];
  /** Guards include recursion, as Helm does. */
  maxIncludeDepth?: number;
}

export class Executor {
  private depth = 0;

  constructor(
    private readonly defines: ReadonlyMap<string, Node[]>,
    private readonly options: ExecuteOptions = {},
  ) {}

  execute(nodes: Node[], data: GoValue): string {
    const vars: Variable[] = [{ name: "$", value: data }];
    return this.walk(nodes, data, vars);
  }

  private walk(nodes: Node[], dot: GoValue, vars: Variable[]): string {
    let out = "";
    for (const node of nodes) {
      switch (node.type) {
        case "text":
          out += node.text;
          break;
        case "action": {
          const value = this.pipeline(node.pipeline, dot, vars);
          // A pipeline that declares or assigns a variable prints nothing.
          if (node.pipeline.variables.length === 0) out += this.guard(node.pipeline.pos, () => printValue(value));
          break;
        }
        case "if":
        case "with": {
          const mark = vars.length;
          const value = this.pipeline(node.pipeline, dot, vars);
          if (isTrue(value)) out += this.walk(node.then, node.type === "with" ? value : dot, vars);
          else out += this.walk(node.otherwise, dot, vars);
          vars.length = mark;
          break;
        }
        case "range":
          out += this.range(node, dot, vars);
          break;
      }
    }
    return out;
  }

  private range(node: Extract<Node, { type: "range" }>, dot: GoValue, vars: Variable[]): string {
    const { pipeline } = node;
    const value = this.commands(pipeline.commands, pipeline.pos, dot, vars);
    let entries: [GoValue, GoValue][];
    if (value === null) entries = [];
    else if (Array.isArray(value)) entries = value.map((v, i) => [BigInt(i), v]);
    // Go ranges over a map in sorted key order.
    else if (isMap(value)) entries = Object.keys(value).sort().map((k) => [k, value[k]!]);
    else throw new TemplateError(pipeline.pos, `range over ${describe(value)} is outside the subset`);
    if (entries.length === 0) return this.walk(node.otherwise, dot, vars);
    let out = "";
    for (const [key, element] of entries) {
      const mark = vars.length;
      if (pipeline.variables.length === 1) vars.push({ name: pipeline.variables[0]!, value: element });
      if (pipeline.variables.length === 2) {
        vars.push({ name: pipeline.variables[0]!, value: key });
        vars.push({ name: pipeline.variables[1]!, value: element });
      }
      out += this.walk(node.then, element, vars);
      vars.length = mark;
    }
    return out;
  }

  private pipeline(pipeline: Pipeline, dot: GoValue, vars: Variable[]): GoValue {
    const value = this.commands(pipeline.commands, pipeline.pos, dot, vars);
    const name = pipeline.variables[0];
    if (name !== undefined) {
      if (pipeline.assign) {
        const found = [...vars].reverse().find((v) => v.name === name);
        if (!found) throw new TemplateError(pipeline.pos, `undefined variable: ${name}`);
        found.value = value;
      } else {
        vars.push({ name, value });
      }
    }
    return value;
  }

  private commands(commands: Command[], pos: Pos, dot: GoValue, vars: Variable[]): GoValue {
    let piped: GoValue | undefined;
    for (const command of commands) piped = this.command(command, pos, dot, vars, piped);
    return piped!;
  }

  private command(command: Command, pos: Pos, dot: GoValue, vars: Variable[], piped: GoValue | undefined): GoValue {
    const [first, ...rest] = command.operands;
    if (first!.kind !== "function") return this.operand(first!, pos, dot, vars);
    const name = first!.name;
    if (lazyFunctions.has(name)) {
      // Go 1.18+: and/or stop at the first false/true argument and return that argument.
      const thunks = rest.map((o) => () => this.operand(o, pos, dot, vars));
      if (piped !== undefined) thunks.push(() => piped);
      if (thunks.length === 0) throw new TemplateError(pos, `${name}: missing arguments`);
      let value: GoValue = null;
      for (const thunk of thunks) {
        value = thunk();
        if (name === "and" ? !isTrue(value) : isTrue(value)) break;
      }
      return value;
    }
    const args = rest.map((o) => this.operand(o, pos, dot, vars));
    if (piped !== undefined) args.push(piped);
    return this.call(name, args, pos);
  }

  private call(name: string, args: GoValue[], pos: Pos): GoValue {
    const context: FunctionContext = {
      include: (template, data) => this.include(template, data, pos),
      lookup: this.options.lookup ?? (() => ({})),
    };
    return this.guard(pos, () => functions[name]!(context, args));
  }

  private include(name: string, data: GoValue, pos: Pos): string {
    const body = this.defines.get(name);
    if (!body) throw new TemplateError(pos, `include of an undefined template "${name}"`);
    if (this.depth >= (this.options.maxIncludeDepth ?? 1000)) throw new TemplateError(pos, `include "${name}": too deep`);
    this.depth++;
    try {
      return this.execute(body, data);
    } finally {
      this.depth--;
    }
  }

  private operand(operand: Operand, pos: Pos, dot: GoValue, vars: Variable[]): GoValue {
    switch (operand.kind) {
      case "dot":
        return dot;
      case "field":
        return this.fields(dot, operand.chain, pos);
      case "variable": {
        const found = [...vars].reverse().find((v) => v.name === operand.name);
        if (!found) throw new TemplateError(pos, `undefined variable: ${operand.name}`);
        return this.fields(found.value, operand.chain, pos);
      }
      case "string":
      case "number":
      case "bool":
        return operand.value;
      case "nil":
        return null;
      case "function":
        // A function name as an argument is a call without arguments, as in Go.
        return this.call(operand.name, [], pos);
      case "pipeline":
        return this.commands(operand.pipeline.commands, pos, dot, vars);
    }
  }

  private fields(value: GoValue, chain: string[], pos: Pos): GoValue {
    let v = value;
    for (const field of chain) {
      if (v instanceof GoStruct) {
        if (!Object.hasOwn(v.fields, field)) throw new TemplateError(pos, `can't evaluate field ${field} in type ${v.typeName} (outside the subset)`);
        v = v.fields[field]!;
      } else if (isMap(v)) {
        v = Object.hasOwn(v, field) ? (v as GoMap)[field]! : null;
      } else if (v === null) {
        throw new TemplateError(pos, `nil pointer evaluating interface {}.${field}`);
      } else {
        throw new TemplateError(pos, `can't evaluate field ${field} in type ${describe(v)}`);
      }
    }
    return v;
  }

  private guard<T>(pos: Pos, f: () => T): T {
    try {
      return f();
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      throw new TemplateError(pos, (error as Error).message);
    }
  }
}
