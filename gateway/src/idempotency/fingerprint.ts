import { createHash } from "node:crypto";

/** JSON with object keys sorted, so {a,b} and {b,a} are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What makes two requests "the same request" for one Idempotency-Key. */
export function requestFingerprint(operationId: string, request: unknown): string {
  return createHash("sha256").update(operationId).update("\n").update(canonicalJson(request)).digest("hex");
}

/** The stored id of a key: one key per project and environment. */
export function idempotencyRecordId(projectId: string, environment: string, key: string): string {
  return createHash("sha256").update(`${projectId}\u0000${environment}\u0000${key}`).digest("hex");
}
