import { createHash } from "node:crypto";
import { PaymongoSimulatorError } from "./api-error.js";

/** PayMongo keeps a key for 24 h; after that the key is new again [O reference/idempotent-requests]. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

type Entry =
  | { state: "in_progress"; fingerprint: string; expiresAt: number }
  | { state: "done"; fingerprint: string; expiresAt: number; outcome: { ok: true; body: unknown } | { ok: false; error: PaymongoSimulatorError } };

/** A request's fingerprint: method, path and attributes with their keys sorted, so key order never matters. */
export function requestFingerprint(method: string, path: string, attributes: Record<string, unknown>): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]));
    }
    return value;
  };
  return createHash("sha256").update(JSON.stringify([method, path, canonical(attributes)])).digest("hex");
}

/**
 * A failure that PayMongo's validation would catch (every error a `parameter_…` one): such a
 * request is not stored, so the same key may be sent again, corrected [O].
 */
const failedValidation = (error: PaymongoSimulatorError) => error.errors.every((entry) => entry.code.startsWith("parameter_"));

/**
 * The `Idempotency-Key` of POST requests, per account [O reference/idempotent-requests]: the
 * first result, success or failure, is stored and replayed for 24 h. The status and code of a
 * key reused with other parameters are UNCONF: the simulator answers 400
 * `idempotency_key_mismatch`, the shape of PayMongo's other 400s. A second request while the
 * first is running gets 409 `idempotency_in_progress` ([O] for money movement, assumed here for
 * payments). Nothing is stored for a request that fails validation, nor for a simulator fault.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private nextSweepAt = 0;

  constructor(private readonly ttlMs = IDEMPOTENCY_KEY_TTL_MS) {}

  /** The key of a request's `Idempotency-Key` header, checked; undefined when it has none. */
  static keyOf(header: string | string[] | undefined): string | undefined {
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return undefined;
    if (key.trim() === "" || key.length > MAX_KEY_LENGTH) {
      // PayMongo's answer to a malformed key is undocumented (UNCONF): a 400 naming the header.
      throw new PaymongoSimulatorError(400, [
        { code: "parameter_invalid", detail: `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`, source: { pointer: "headers.Idempotency-Key", attribute: "Idempotency-Key" } },
      ]);
    }
    return key;
  }

  /** Drops expired keys now and then, so a long-running simulator does not keep every key it saw. */
  private forgetExpired(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + Math.min(this.ttlMs, 60_000);
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }

  /** Runs `handle` once per `owner` and `key`; repeats replay its outcome. */
  async run(owner: string, key: string, fingerprint: string, handle: () => Promise<unknown>): Promise<unknown> {
    const id = `${owner}:${key}`;
    const now = Date.now();
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= now) this.entries.delete(id);
    else if (entry) {
      if (entry.fingerprint !== fingerprint) {
        throw new PaymongoSimulatorError(400, [
          { code: "idempotency_key_mismatch", detail: "The Idempotency-Key was used before with different parameters." },
        ]);
      }
      if (entry.state === "in_progress") {
        throw new PaymongoSimulatorError(409, [
          { code: "idempotency_in_progress", detail: "A request with this Idempotency-Key is still being processed." },
        ]);
      }
      if (!entry.outcome.ok) throw entry.outcome.error;
      return structuredClone(entry.outcome.body);
    }
    this.forgetExpired(now);
    this.entries.set(id, { state: "in_progress", fingerprint, expiresAt: now + this.ttlMs });
    try {
      const body = await handle();
      this.entries.set(id, { state: "done", fingerprint, expiresAt: now + this.ttlMs, outcome: { ok: true, body: structuredClone(body) } });
      return body;
    } catch (error) {
      if (error instanceof PaymongoSimulatorError && !failedValidation(error)) {
        this.entries.set(id, { state: "done", fingerprint, expiresAt: now + this.ttlMs, outcome: { ok: false, error } });
      } else {
        this.entries.delete(id);
      }
      throw error;
    }
  }
}
