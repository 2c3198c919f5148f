import { XenditSimulatorError } from "./api-error.js";

/** How long a key's first answer is replayed: Xendit's retention is UNCONF, so a day, as PayMongo's. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface Answer {
  status: number;
  body: unknown;
}

type Entry = { fingerprint: string; expiresAt: number; answer?: Answer };

/** Key order never matters to a fingerprint: objects are written with their keys sorted. */
export function fingerprintOf(body: Record<string, unknown>): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
    }
    return value;
  };
  return JSON.stringify(canonical(body));
}

/**
 * The `idempotency-key` header's results, per account and endpoint. Xendit's replay and mismatch
 * behaviour is UNCONF; the simulator takes the conservative reading: the same key with the same
 * body answers the first answer again, and nothing new is made; another body, or the same key
 * while the first is still running, is 409 DUPLICATE_ERROR. A 5xx frees the key, since nothing
 * was made.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs = IDEMPOTENCY_KEY_TTL_MS) {}

  async run(scope: string, body: Record<string, unknown>, work: () => Promise<Answer>): Promise<Answer> {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    const fingerprint = fingerprintOf(body);
    const existing = this.entries.get(scope);
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw conflict("This idempotency-key was already used with another request body.");
      if (!existing.answer) throw conflict("A request with this idempotency-key is still being processed.");
      return existing.answer;
    }
    const entry: Entry = { fingerprint, expiresAt: now + this.ttlMs };
    this.entries.set(scope, entry);
    const answer = await work().catch((err: unknown) => {
      this.entries.delete(scope);
      throw err;
    });
    if (answer.status >= 500) this.entries.delete(scope);
    else entry.answer = answer;
    return answer;
  }
}

function conflict(message: string): XenditSimulatorError {
  return new XenditSimulatorError(409, "DUPLICATE_ERROR", message);
}
