/// <reference lib="es2024.string" />
// String.prototype.isWellFormed (Node 20): the tsconfig's lib is ES2023.

/**
 * Strings that are not well-formed Unicode in a parsed JSON body. JSON.parse lets a lone
 * surrogate through from an escape (`"\ud800"`), and protobuf would store it as U+FFFD, so what
 * was stored would not be what was sent. Property names count too (metadata keys).
 *
 * The body has been parsed already and is at most the body limit, but its nesting is the
 * client's choice, so both walks keep their own stack rather than recursing. The first walk,
 * run on every body, only looks; the second, run when the first found something, names fields.
 */
export function illFormedStrings(body: unknown, whole: string): string[] {
  return hasIllFormedString(body) ? nameIllFormedStrings(body, whole) : [];
}

function hasIllFormedString(body: unknown): boolean {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === "string") {
      if (!node.isWellFormed()) return true;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (typeof node === "object" && node !== null) {
      for (const key of Object.keys(node)) {
        if (!key.isWellFormed()) return true;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

const problem = "must be well-formed Unicode (it holds a lone surrogate)";

/** One "field: problem" per offending string, fields named as describeViolations names them. */
function nameIllFormedStrings(body: unknown, whole: string): string[] {
  const found: string[] = [];
  const stack: Array<{ node: unknown; field: string }> = [{ node: body, field: "" }];
  const join = (field: string, key: string) => (field ? `${field}.${key}` : key);
  while (stack.length > 0) {
    const { node, field } = stack.pop()!;
    if (typeof node === "string") {
      if (!node.isWellFormed()) found.push(`${field || whole}: ${problem}`);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, field: join(field, String(index)) }));
    } else if (typeof node === "object" && node !== null) {
      for (const key of Object.keys(node)) {
        // The name itself cannot be echoed, so the detail names the object that holds it.
        if (!key.isWellFormed()) found.push(`${field || whole}: a property name ${problem}`);
        else stack.push({ node: (node as Record<string, unknown>)[key], field: join(field, key) });
      }
    }
  }
  return found;
}
