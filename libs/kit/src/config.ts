import { randomBase62 } from "./ids.js";
import { LEGACY_KEY_ID, parseKeyRing, singleKeyRing, type KeyRing } from "./key-ring.js";
/**
 * Environment-only configuration, validated at start. A bad or missing value throws a
 * ConfigError whose message is the one line the process prints before it stops.
 */
export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

/** A process environment (or the part of it a reader is given). */
export type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

export function envString(env: Env, name: string, fallback?: string): string {
  const value = raw(env, name) ?? fallback;
  if (value === undefined) throw new ConfigError(name, "is required but not set");
  return value;
}

export function envOptional(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function envInt(env: Env, name: string, fallback: number, bounds: { min: number; max: number }): number {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < bounds.min || value > bounds.max) {
    throw new ConfigError(name, `must be an integer from ${bounds.min} to ${bounds.max}, got "${text}"`);
  }
  return value;
}

export function envBool(env: Env, name: string, fallback: boolean): boolean {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  if (["true", "1", "on", "yes"].includes(text.toLowerCase())) return true;
  if (["false", "0", "off", "no"].includes(text.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false, got "${text}"`);
}

export function envEnum<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const text = raw(env, name);
  if (text === undefined) return fallback;
  if (!(values as readonly string[]).includes(text)) {
    throw new ConfigError(name, `must be one of ${values.join(", ")}, got "${text}"`);
  }
  return text as T;
}

export function envUrl(env: Env, name: string, fallback?: string): string | undefined {
  const text = raw(env, name) ?? fallback;
  if (text === undefined) return undefined;
  try {
    new URL(text);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${text}"`);
  }
  return text;
}

const durationUnits: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration written like `500ms`, `30s`, `5m`, `2h` or `1d`, in milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * durationUnits[match[2]];
}

/** A duration variable (see parseDuration), in milliseconds, within `bounds` (also in milliseconds). */
export function envDuration(env: Env, name: string, fallbackMs: number, bounds: { minMs: number; maxMs: number }): number {
  const text = raw(env, name);
  if (text === undefined) return fallbackMs;
  const value = parseDuration(text);
  if (value === undefined || value < bounds.minMs || value > bounds.maxMs) {
    throw new ConfigError(name, `must be a duration such as 30s or 5m, from ${bounds.minMs} ms to ${bounds.maxMs} ms, got "${text}"`);
  }
  return value;
}

/**
 * A secret that replicas must share: the configured value (at least `minLength` characters), or,
 * when unset, one drawn for this process alone (fine for one process, wrong for several).
 */
export function envSecret(env: Env, name: string, minLength: number): { value: string; generated: boolean } {
  const value = raw(env, name);
  if (value !== undefined && value.length < minLength) throw new ConfigError(name, `must be at least ${minLength} characters`);
  return value !== undefined ? { value, generated: false } : { value: randomBase62(Math.max(minLength, 43)), generated: true };
}

/**
 * A key ring setting (key-ring.ts): `ring` (e.g. SECRETS_KEYS, `<id>:<key>,…` oldest first) or
 * `single` (e.g. SECRETS_KEY, a ring of one key with the id "legacy"); undefined when neither is
 * set. Both may be set only when they agree: the ring holds the single key as its "legacy" entry.
 */
export function envKeyRing(env: Env, names: { single: string; ring: string }, minLength: number): KeyRing | undefined {
  const single = raw(env, names.single);
  const text = raw(env, names.ring);
  if (single !== undefined && single.length < minLength) throw new ConfigError(names.single, `must be at least ${minLength} characters`);
  if (text === undefined) return single === undefined ? undefined : singleKeyRing(single);
  let ring: KeyRing;
  try {
    ring = parseKeyRing(text, minLength);
  } catch (error) {
    throw new ConfigError(names.ring, (error as Error).message);
  }
  if (single !== undefined && ring.keys.find((entry) => entry.id === LEGACY_KEY_ID)?.key !== single) {
    throw new ConfigError(names.ring, `must hold ${names.single} as its "${LEGACY_KEY_ID}" entry when both are set (or set only one of them)`);
  }
  return ring;
}

/**
 * SECRETS_KEYS, or SECRETS_KEY (every key at least 32 characters): seals provider accounts'
 * secrets (payments seals; links and billing open them) and webhook endpoints' signing secrets.
 */
export function readSecretsKeys(env: Env): KeyRing | undefined {
  return envKeyRing(env, { single: "SECRETS_KEY", ring: "SECRETS_KEYS" }, 32);
}
