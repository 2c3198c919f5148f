import { hash } from "node:crypto";

/**
 * JSON with object keys sorted, so {a,b} and {b,a} are the same request. It is valid JSON (what
 * JSON.parse reads back), so it is also what is stored for reconciliation to run again.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
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
