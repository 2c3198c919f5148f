import { hash } from "node:crypto";
import { AppError, isEnvironment, newId, randomBase62, type Environment } from "@bayad/kit";
import type { Collection, CollectionDef, Store } from "@bayad/store";

/**
 * Project API keys: `sk_test_…` / `sk_live_…`. The key text is shown once, at issue, and never
 * kept: the store holds only its hash, so a leaked database cannot be replayed as credentials.
 */

interface ApiKeyDoc {
  _id: string;
  projectId: string;
  environment: Environment;
  keyHash: string;
  /** The key's first 12 characters, so an operator can tell keys apart without the secret. */
  keyPrefix: string;
  createdAt: Date;
}

export const apiKeysCollection: CollectionDef = {
  name: "api_keys",
  indexes: [{ name: "api_keys_key_hash", keys: { keyHash: 1 }, unique: true }],
};

export interface IssuedApiKey {
  /** The key text; returned here once and never again. */
  apiKey: string;
  keyId: string;
  environment: Environment;
}

export interface VerifiedApiKey {
  keyId: string;
  projectId: string;
  environment: Environment;
}

export interface ApiKeys {
  issue(projectId: string, environment: Environment): Promise<IssuedApiKey>;
  /** The key's owner, or null when the text is not a live key of this platform. */
  verify(apiKey: string): Promise<VerifiedApiKey | null>;
}

export interface ApiKeysOptions {
  /** How long a positive verification is trusted without asking the store. */
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  now?: () => number;
}

const randomLength = 32;
const keyPrefixLength = 12;
// The environment is part of the key text so a key pasted into the wrong config is refused
// before any lookup, and so a stored row can be checked against what the holder presented.
const keyPattern = /^sk_(test|live)_([0-9A-Za-z]{32})$/;

/**
 * SHA-256, unsalted and fast, on purpose: a key is 32 random base62 characters (~190 bits), so
 * no dictionary or brute force can reach it and a slow password hash would only slow every
 * request. Being deterministic is what lets `verify` find the row by its hash.
 */
function hashApiKey(apiKey: string): string {
  return hash("sha256", apiKey, "hex");
}

function assertEnvironment(environment: string): asserts environment is Environment {
  if (!isEnvironment(environment)) {
    throw new AppError("VALIDATION_FAILED", undefined, {
      details: ["environment must be one of: test, live"],
    });
  }
}

export function createApiKeys(store: Store, options: ApiKeysOptions = {}): ApiKeys {
  const keys: Collection<ApiKeyDoc> = store.collection<ApiKeyDoc>(apiKeysCollection);
  const cache = createVerifiedCache(
    options.cacheTtlMs ?? 30_000,
    options.cacheMaxEntries ?? 10_000,
    options.now ?? Date.now,
  );

  return {
    async issue(projectId, environment) {
      assertEnvironment(environment);
      const apiKey = `sk_${environment}_${randomBase62(randomLength)}`;
      const keyId = newId("key");
      await keys.insertOne({
        _id: keyId,
        projectId,
        environment,
        keyHash: hashApiKey(apiKey),
        keyPrefix: apiKey.slice(0, keyPrefixLength),
        createdAt: new Date(),
      });
      return { apiKey, keyId, environment };
    },

    async verify(apiKey) {
      const match = keyPattern.exec(apiKey);
      if (!match) return null;
      const keyHash = hashApiKey(apiKey);
      const cached = cache.get(keyHash);
      if (cached) return cached;

      const doc = await keys.findOne({ keyHash });
      // A row whose environment disagrees with the key text is never honoured: the prefix is
      // what the holder believes they are using, and test and live must never cross.
      if (!doc || doc.environment !== match[1]) return null;
      const verified: VerifiedApiKey = {
        keyId: doc._id,
        projectId: doc.projectId,
        environment: doc.environment,
      };
      cache.set(keyHash, verified);
      return verified;
    },
  };
}

/**
 * Positive results only, for a short time: verification sits on every request's path, and a
 * short TTL bounds how long a key deleted from the store keeps working on this replica.
 * Negative results are not cached, so a flood of wrong keys cannot evict the good ones. The
 * map is bounded; Map keeps insertion order, so its first entry is the oldest.
 */
function createVerifiedCache(ttlMs: number, maxEntries: number, now: () => number) {
  const entries = new Map<string, { value: VerifiedApiKey; expiresAt: number }>();
  return {
    get(keyHash: string): VerifiedApiKey | undefined {
      const entry = entries.get(keyHash);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(keyHash);
        return undefined;
      }
      return entry.value;
    },
    set(keyHash: string, value: VerifiedApiKey): void {
      entries.delete(keyHash);
      while (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
      entries.set(keyHash, { value, expiresAt: now() + ttlMs });
    },
  };
}
