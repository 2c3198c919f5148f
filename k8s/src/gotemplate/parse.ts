/**
 * Lexer and parser for the Go text/template subset the chart uses. Anything outside the subset
 * (template/block, break/continue, char or float literals, method calls, `else with`, unknown
 * functions, …) is a TemplateError naming the file and line: the point is to refuse rather than
 * guess at what helm would do.
 */
import type { Command, Node, Operand, ParsedFile, Pipeline, Pos } from "./ast.js";

export class TemplateError extends Error {
  constructor(pos: Pos, message: string) {
    super(`${pos.file}:${pos.line}: ${message}`);
    this.name = "TemplateError";
  }
}

type Token =
  | { t: "(" | ")" | "|" | ":=" | "=" | "," }
  | { t: "string"; value: string }
  | { t: "number"; value: bigint }
  | { t: "dot" }
  | { t: "field"; chain: string[] }
  | { t: "variable"; name: string; chain: string[] }
  | { t: "ident"; name: string };

type Item = { kind: "text"; text: string } | { kind: "action"; tokens: Token[]; pos: Pos };

const spaceChars = " \t\r\n";
const isSpace = (c: string | undefined) => c !== undefined && spaceChars.includes(c);
const identStart = /[A-Za-z_]/;
const identChar = /[A-Za-z0-9_]/;

/** Splits a template into text and actions, applying the {{- and -}} trim markers, dropping comments. */
function scan(src: string, file: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  let trimNextText = false;
  const lineAt = (offset: number) => src.slice(0, offset).split("\n").length;
  const pushText = (text: string) => {
    if (trimNextText) text = text.replace(/^[ \t\r\n]+/, "");
    trimNextText = false;
    if (text !== "") items.push({ kind: "text", text });
  };
  while (i < src.length) {
    const open = src.indexOf("{{", i);
    if (open < 0) {
      pushText(src.slice(i));
      break;
    }
    const pos = { file, line: lineAt(open) };
    let k = open + 2;
    let text = src.slice(i, open);
    // "{{- " trims the white space before the action; the dash needs a space after it.
    if (src[k] === "-" && isSpace(src[k + 1])) {
      const wasTrimmingNext = trimNextText;
      trimNextText = false;
      text = (wasTrimmingNext ? text.replace(/^[ \t\r\n]+/, "") : text).replace(/[ \t\r\n]+$/, "");
      if (text !== "") items.push({ kind: "text", text });
      k += 2;
    } else {
      pushText(text);
    }
    while (isSpace(src[k])) k++;
    if (src.startsWith("/*", k)) {
      const close = src.indexOf("*/", k + 2);
      if (close < 0) throw new TemplateError(pos, "unclosed comment");
      let j = close + 2;
      if (src.startsWith(" -}}", j)) {
        trimNextText = true;
        j += 4;
      } else if (src.startsWith("}}", j)) {
        j += 2;
      } else {
        throw new TemplateError(pos, "a comment must end right before }} or -}}");
      }
      i = j;
      continue;
    }
    // Find the closing }} outside string literals.
    let j = k;
    for (;;) {
      if (j >= src.length) throw new TemplateError(pos, "unclosed action");
      const c = src[j];
      if (c === '"') {
        j++;
        while (j < src.length && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
        j++;
      } else if (c === "`") {
        const end = src.indexOf("`", j + 1);
        if (end < 0) throw new TemplateError(pos, "unclosed raw string");
        j = end + 1;
      } else if (src.startsWith("}}", j)) {
        break;
      } else {
        j++;
      }
    }
    let body = src.slice(k, j);
    // " -}}" trims the white space after the action.
    if (/[ \t\r\n]-$/.test(body)) {
      body = body.slice(0, -1);
      trimNextText = true;
    }
    items.push({ kind: "action", tokens: tokenize(body, pos), pos });
    i = j + 2;
  }
  return items;
}

function tokenize(body: string, pos: Pos): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const chainAt = (start: number): [string[], number] => {
    const chain: string[] = [];
    let j = start;
    while (body[j] === "." && identStart.test(body[j + 1] ?? "")) {
      let end = j + 1;
      while (end < body.length && identChar.test(body[end]!)) end++;
      chain.push(body.slice(j + 1, end));
      j = end;
    }
    return [chain, j];
  };
  while (i < body.length) {
    const c = body[i]!;
    if (isSpace(c)) {
      i++;
    } else if (c === "(" || c === ")" || c === "|" || c === ",") {
      if (c === ")" && body[i + 1] === ".") throw new TemplateError(pos, "a field of a parenthesized value is outside the subset");
      tokens.push({ t: c });
      i++;
    } else if (body.startsWith(":=", i)) {
      tokens.push({ t: ":=" });
      i += 2;
    } else if (c === "=") {
      tokens.push({ t: "=" });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      let value = "";
      const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", '"': '"' };
      while (body[j] !== '"') {
        if (j >= body.length) throw new TemplateError(pos, "unterminated string");
        if (body[j] === "\\") {
          const e = escapes[body[j + 1] ?? ""];
          if (e === undefined) throw new TemplateError(pos, `the escape \\${body[j + 1]} is outside the subset`);
          value += e;
          j += 2;
        } else {
          value += body[j];
          j++;
        }
      }
      tokens.push({ t: "string", value });
      i = j + 1;
    } else if (c === "`") {
      const end = body.indexOf("`", i + 1);
      tokens.push({ t: "string", value: body.slice(i + 1, end) });
      i = end + 1;
    } else if (/[0-9]/.test(c) || (c === "-" && /[0-9]/.test(body[i + 1] ?? ""))) {
      const m = /^-?[0-9]+/.exec(body.slice(i))!;
      const next = body[i + m[0].length];
      if (next !== undefined && /[.xXeEbBoO_A-Za-z0-9]/.test(next)) {
        throw new TemplateError(pos, "only decimal integer literals are in the subset");
      }
      tokens.push({ t: "number", value: BigInt(m[0]) });
      i += m[0].length;
    } else if (c === ".") {
      const [chain, end] = chainAt(i);
      tokens.push(chain.length === 0 ? { t: "dot" } : { t: "field", chain });
      i = chain.length === 0 ? i + 1 : end;
    } else if (c === "$") {
      let end = i + 1;
      while (end < body.length && identChar.test(body[end]!)) end++;
      const name = body.slice(i, end);
      const [chain, after] = chainAt(end);
      tokens.push({ t: "variable", name, chain });
      i = after;
    } else if (identStart.test(c)) {
      let end = i;
      while (end < body.length && identChar.test(body[end]!)) end++;
      if (body[end] === ".") throw new TemplateError(pos, "a field of a function's result is outside the subset");
      tokens.push({ t: "ident", name: body.slice(i, end) });
      i = end;
    } else {
      throw new TemplateError(pos, `"${c}" is outside the subset (char literals, operators, …)`);
    }
  }
  return tokens;
}

const outsideSubset = new Set(["template", "block", "break", "continue"]);

export function parseTemplate(src: string, file: string, functions: ReadonlySet<string>): ParsedFile {
  const items = scan(src, file);
  const defines = new Map<string, Node[]>();
  let at = 0;

  type Stop = { kw: "end"; pos: Pos } | { kw: "else"; pos: Pos; elseIf?: Pipeline } | { kw: "eof" };

  function parsePipeline(tokens: Token[], pos: Pos, allowDeclare: boolean, rangeVariables = false): Pipeline {
    let rest = tokens;
    const variables: string[] = [];
    let assign = false;
    // $x := …, $x = …, or in range: $i, $e := …
    const declEnd = rest.findIndex((t) => t.t === ":=" || t.t === "=");
    if (declEnd > 0 && rest.slice(0, declEnd).every((t) => t.t === "variable" || t.t === ",")) {
      if (!allowDeclare) throw new TemplateError(pos, "a variable declaration is not allowed here");
      for (const t of rest.slice(0, declEnd)) {
        if (t.t === "variable") {
          if (t.chain.length > 0) throw new TemplateError(pos, "cannot declare a field");
          variables.push(t.name);
        }
      }
      assign = rest[declEnd]!.t === "=";
      const max = rangeVariables ? 2 : 1;
      if (variables.length > max || variables.length === 0) throw new TemplateError(pos, "too many declared variables");
      if (variables.length === 2 && rest[1]?.t !== ",") throw new TemplateError(pos, "expected a comma between variables");
      rest = rest.slice(declEnd + 1);
    }
    const pipeline = parseCommands(rest, pos);
    return { pos, variables, assign, commands: pipeline };
  }

  function parseCommands(tokens: Token[], pos: Pos): Command[] {
    const commands: Command[] = [];
    let operands: Operand[] = [];
    let i = 0;
    const operand = (): Operand => {
      const t = tokens[i]!;
      i++;
      switch (t.t) {
        case "dot":
          return { kind: "dot" };
        case "field":
          return { kind: "field", chain: t.chain };
        case "variable":
          return { kind: "variable", name: t.name, chain: t.chain };
        case "string":
          return { kind: "string", value: t.value };
        case "number":
          return { kind: "number", value: t.value };
        case "ident":
          if (t.name === "true" || t.name === "false") return { kind: "bool", value: t.name === "true" };
          if (t.name === "nil") return { kind: "nil" };
          if (!functions.has(t.name)) throw new TemplateError(pos, `function "${t.name}" is outside the subset`);
          return { kind: "function", name: t.name };
        case "(": {
          let depth = 1;
          const start = i;
          while (depth > 0) {
            if (i >= tokens.length) throw new TemplateError(pos, "unclosed parenthesis");
            const tt = tokens[i]!.t;
            if (tt === "(") depth++;
            if (tt === ")") depth--;
            i++;
          }
          return { kind: "pipeline", pipeline: { pos, variables: [], assign: false, commands: parseCommands(tokens.slice(start, i - 1), pos) } };
        }
        default:
          throw new TemplateError(pos, `unexpected "${t.t}"`);
      }
    };
    while (i < tokens.length) {
      if (tokens[i]!.t === "|") {
        if (operands.length === 0) throw new TemplateError(pos, "missing command before |");
        commands.push({ operands });
        operands = [];
        i++;
        continue;
      }
      operands.push(operand());
    }
    if (operands.length === 0) throw new TemplateError(pos, "missing command");
    commands.push({ operands });
    for (const [index, command] of commands.entries()) {
      const [first, ...args] = command.operands;
      if (first!.kind !== "function" && (args.length > 0 || index > 0)) {
        throw new TemplateError(pos, "arguments can only be given to a function");
      }
    }
    return commands;
  }

  function keyword(tokens: Token[]): string | undefined {
    const first = tokens[0];
    return first?.t === "ident" && ["if", "else", "end", "range", "with", "define", ...outsideSubset].includes(first.name) ? first.name : undefined;
  }

  function parseBlock(topLevel: boolean): { nodes: Node[]; stop: Stop } {
    const nodes: Node[] = [];
    while (at < items.length) {
      const item = items[at]!;
      at++;
      if (item.kind === "text") {
        nodes.push({ type: "text", text: item.text });
        continue;
      }
      const { tokens, pos } = item;
      const kw = keyword(tokens);
      const rest = tokens.slice(1);
      if (kw === undefined) {
        nodes.push({ type: "action", pipeline: parsePipeline(tokens, pos, true) });
      } else if (outsideSubset.has(kw)) {
        throw new TemplateError(pos, `{{ ${kw} }} is outside the subset`);
      } else if (kw === "end") {
        if (rest.length > 0) throw new TemplateError(pos, "unexpected words after end");
        return { nodes, stop: { kw: "end", pos } };
      } else if (kw === "else") {
        if (rest.length === 0) return { nodes, stop: { kw: "else", pos } };
        if (keyword(rest) !== "if") throw new TemplateError(pos, "only else and else if are in the subset");
        return { nodes, stop: { kw: "else", pos, elseIf: parsePipeline(rest.slice(1), pos, true) } };
      } else if (kw === "if") {
        nodes.push(parseIf(parsePipeline(rest, pos, true)));
      } else if (kw === "with" || kw === "range") {
        const pipeline = parsePipeline(rest, pos, true, kw === "range");
        if (kw === "with" && pipeline.variables.length > 0) throw new TemplateError(pos, "variables in with are outside the subset");
        const then = parseBlock(false);
        let otherwise: Node[] = [];
        if (then.stop.kw === "else") {
          if (then.stop.elseIf) throw new TemplateError(then.stop.pos, `else if inside ${kw} is outside the subset`);
          otherwise = expectEnd(parseBlock(false), pos, kw);
        } else {
          expectEnd(then, pos, kw);
        }
        nodes.push({ type: kw, pipeline, then: then.nodes, otherwise });
      } else if (kw === "define") {
        const name = rest[0];
        if (!topLevel) throw new TemplateError(pos, "define must be at the top level");
        if (rest.length !== 1 || name?.t !== "string") throw new TemplateError(pos, "define takes one string");
        if (defines.has(name.value)) throw new TemplateError(pos, `template "${name.value}" is defined twice`);
        defines.set(name.value, expectEnd(parseBlock(false), pos, "define"));
      }
    }
    return { nodes, stop: { kw: "eof" } };
  }

  function expectEnd(block: { nodes: Node[]; stop: Stop }, pos: Pos, what: string): Node[] {
    if (block.stop.kw !== "end") throw new TemplateError(pos, `${what} is not closed by end`);
    return block.nodes;
  }

  function parseIf(pipeline: Pipeline): Node {
    const then = parseBlock(false);
    if (then.stop.kw === "else") {
      if (then.stop.elseIf) return { type: "if", pipeline, then: then.nodes, otherwise: [parseIf(then.stop.elseIf)] };
      return { type: "if", pipeline, then: then.nodes, otherwise: expectEnd(parseBlock(false), pipeline.pos, "if") };
    }
    return { type: "if", pipeline, then: expectEnd(then, pipeline.pos, "if"), otherwise: [] };
  }

  const top = parseBlock(true);
  if (top.stop.kw !== "eof") throw new TemplateError(top.stop.pos, `unexpected ${top.stop.kw}`);
  return { body: top.nodes, defines };
}
