import { keyedDigest } from "@bayad/kit";
import { RecentMemory } from "./recent-memory.js";

/**
 * JSON with object keys sorted, so {a,b} and {b,a} are the same request. It is valid JSON (what
 * JSON.parse reads back), so it is also what is kept (sealed) for reconciliation to run again. Built by
 * concatenation, without entry arrays per object: it runs on every POST.
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
 * request's canonicalJson (computed once by the caller, which also keeps it, sealed, for
 * reconciliation). Keyed with the gateway's secret: an unkeyed hash of an OTP request falls to
 * enumeration (a phone number is one of a few billion guesses), this one does not without the key.
 */
export function requestFingerprint(secret: string, operationId: string, canonicalRequest: string): string {
  return keyedDigest(secret, "idempotency-fingerprint", `${operationId}\n${canonicalRequest}`);
}

/** The stored id of a key: one key per project and environment, keyed like the fingerprint. */
export function idempotencyRecordId(secret: string, projectId: string, environment: string, key: string): string {
  return keyedDigest(secret, "idempotency-record-id", `${projectId}\u0000${environment}\u0000${key}`);
}

/**
 * idempotencyRecordId under one secret, remembering the ids of the keys seen lately (two
 * generations of `perGeneration`): a retry repeats its key, and the HMAC costs more than a lookup.
 */
export function recordIdsUnder(secret: string, perGeneration = 2_000): (projectId: string, environment: string, key: string) => string {
  const ids = new RecentMemory<string, string>(perGeneration);
  return (projectId, environment, key) => {
    const seen = `${projectId}\u0000${environment}\u0000${key}`;
    let id = ids.get(seen);
    if (id === undefined) {
      id = idempotencyRecordId(secret, projectId, environment, key);
      ids.set(seen, id);
    }
    return id;
  };
}
