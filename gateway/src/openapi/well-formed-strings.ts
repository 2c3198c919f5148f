/// <reference lib="es2024.string" />
// String.prototype.isWellFormed (Node 20): the tsconfig's lib is ES2023.

/**
 * Strings that are not well-formed Unicode in a parsed JSON body. JSON.parse lets a lone
 * surrogate through from an escape (`"\ud800"`), and protobuf would store it as U+FFFD, so what
 * was stored would not be what was sent. Property names count too (metadata keys).
 *
 * Every body is looked at, so the first look is lean (it names nothing); only a body in which it
 * finds something is walked again to name the fields. Nesting is the client's choice: past a
 * depth no schema of ours reaches, both walks keep their own stack rather than recursing.
 */
export function illFormedStrings(body: unknown, whole: string): string[] {
  return hasIllFormedString(body, 0) ? nameIllFormedStrings(body, whole) : [];
}

const deepest = 64;

function hasIllFormedString(node: unknown, depth: number): boolean {
  if (typeof node === "string") return !node.isWellFormed();
  if (typeof node !== "object" || node === null) return false;
  if (depth > deepest) return nameIllFormedStrings(node, "").length > 0;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (hasIllFormedString(node[i], depth + 1)) return true;
    return false;
  }
  // A parsed body's objects are plain: for…in sees their own properties, without an array of keys.
  for (const key in node) {
    if (!key.isWellFormed() || hasIllFormedString((node as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

const problem = "must be well-formed Unicode (it holds a lone surrogate)";
// A body of the size limit can hold thousands of such strings, nested thousands deep: the answer
// names the first few, each by a name of readable length.
const mostNamed = 20;
const longestName = 200;

/** One "field: problem" per offending string, fields named as describeViolations names them. */
function nameIllFormedStrings(body: unknown, whole: string): string[] {
  const found: string[] = [];
  const stack: Array<{ node: unknown; field: string }> = [{ node: body, field: "" }];
  const join = (field: string, key: string) => (field ? `${field}.${key}` : key);
  const name = (field: string) => (field.length > longestName ? `${field.slice(0, longestName / 2)}…${field.slice(-longestName / 2)}` : field || whole);
  while (stack.length > 0 && found.length < mostNamed) {
    const { node, field } = stack.pop()!;
    if (typeof node === "string") {
      if (!node.isWellFormed()) found.push(`${name(field)}: ${problem}`);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, field: join(field, String(index)) }));
    } else if (typeof node === "object" && node !== null) {
      for (const key of Object.keys(node)) {
        // The name itself cannot be echoed, so the detail names the object that holds it.
        if (!key.isWellFormed()) found.push(`${name(field)}: a property name ${problem}`);
        else stack.push({ node: (node as Record<string, unknown>)[key], field: join(field, key) });
      }
    }
  }
  return found;
}
