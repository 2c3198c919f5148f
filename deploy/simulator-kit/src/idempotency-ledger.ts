/** JSON with every object's keys sorted, so key order never changes a request's fingerprint. */
export function canonicalJson(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(Object.keys(v).sort().map((key) => [key, canonical((v as Record<string, unknown>)[key])]));
    }
    return v;
  };
  return JSON.stringify(canonical(value));
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** What a provider's idempotency rules decide; the errors are in its own shape. */
export interface IdempotencyRules<T> {
  /** Whether an outcome is kept and replayed; one not kept frees the key (nothing was made). */
  keep(outcome: Outcome<T>): boolean;
  /** The key was used before with another fingerprint. */
  mismatch(): Error;
  /** The key's first request is still running. */
  inProgress(): Error;
}

type Entry<T> = { fingerprint: string; expiresAt: number; outcome?: Outcome<T> };

/**
 * Runs work once per key for `ttlMs`: a repeat with the same fingerprint replays the kept outcome
 * (a copy of the value, or the same error thrown again); another fingerprint, or a repeat while the
 * first runs, throws the rules' error. Expired keys are dropped now and then, so a long-running
 * simulator does not keep every key it saw.
 */
export class IdempotencyLedger<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private nextSweepAt = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly rules: IdempotencyRules<T>,
  ) {}

  async run(key: string, fingerprint: string, work: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= now) this.entries.delete(key);
    else if (entry) {
      if (entry.fingerprint !== fingerprint) throw this.rules.mismatch();
      if (!entry.outcome) throw this.rules.inProgress();
      if (!entry.outcome.ok) throw entry.outcome.error;
      return structuredClone(entry.outcome.value);
    }
    this.forgetExpired(now);
    const running: Entry<T> = { fingerprint, expiresAt: now + this.ttlMs };
    this.entries.set(key, running);
    let outcome: Outcome<T>;
    try {
      outcome = { ok: true, value: await work() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (this.rules.keep(outcome)) running.outcome = outcome.ok ? { ok: true, value: structuredClone(outcome.value) } : outcome;
    else if (this.entries.get(key) === running) this.entries.delete(key);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  private forgetExpired(now: number): void {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + Math.min(this.ttlMs, 60_000);
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
