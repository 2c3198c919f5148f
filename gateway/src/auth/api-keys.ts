import { hash } from "node:crypto";
import { AppError, isEnvironment, newId, randomBase62, type Environment, type Logger } from "@bayad/kit";
import type { Collection, CollectionDef, Store } from "@bayad/store";

/**
 * Project API keys: `sk_test_…` / `sk_live_…`. The key text is shown once, at issue, and never
 * kept: the store holds only its hash, so a leaked database cannot be replayed as credentials.
 * Operators list a project's keys (prefix and last four characters only) and revoke them; a
 * revoked key is refused by every replica within `cacheTtlMs` (500 ms by default).
 */

interface ApiKeyDoc {
  _id: string;
  projectId: string;
  environment: Environment;
  keyHash: string;
  /** The key's first 12 characters, so an operator can tell keys apart without the secret. */
  keyPrefix: string;
  /** The key's last 4 characters (absent on keys issued before they were kept). */
  keyLast4?: string;
  createdAt: Date;
  /** When a request last presented the key, to within `lastUsedPrecisionMs`. */
  lastUsedAt?: Date;
  revokedAt?: Date;
}

export const apiKeysCollection: CollectionDef = {
  name: "api_keys",
  indexes: [
    { name: "api_keys_key_hash", keys: { keyHash: 1 }, unique: true },
    { name: "api_keys_project", keys: { projectId: 1, createdAt: -1 } },
  ],
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

/** What an operator may see of a key: never the key text, nor its hash. */
export interface ApiKeySummary {
  keyId: string;
  environment: Environment;
  keyPrefix: string;
  keyLast4?: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

export interface ApiKeys {
  issue(projectId: string, environment: Environment): Promise<IssuedApiKey>;
  /** The key's owner, or null when the text is not a live (issued, unrevoked) key of this platform. */
  verify(apiKey: string): Promise<VerifiedApiKey | null>;
  /** The project's keys, newest first, revoked ones included. */
  list(projectId: string): Promise<ApiKeySummary[]>;
  /**
   * Revokes the project's key: from now on it is refused (on other replicas once their cache
   * entry expires). Revoking a revoked key changes nothing and answers the same. Null when the
   * project has no such key.
   */
  revoke(projectId: string, keyId: string): Promise<ApiKeySummary | null>;
}

export interface ApiKeysOptions {
  /**
   * How long a verification is trusted without asking the store: the longest a revoked key
   * keeps working on a replica that verified it just before.
   */
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  /** How stale `lastUsedAt` may be: it is written at most once per this period per key. */
  lastUsedPrecisionMs?: number;
  /** The clock, in epoch milliseconds; tests move it instead of sleeping. */
  now?: () => number;
  /** Where a failed `lastUsedAt` write is reported (it never fails the request). */
  logger?: Logger;
}

const randomLength = 32;
const keyPrefixLength = 12;
const keyLast4Length = 4;
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

function summaryOf(doc: ApiKeyDoc): ApiKeySummary {
  return {
    keyId: doc._id,
    environment: doc.environment,
    keyPrefix: doc.keyPrefix,
    ...(doc.keyLast4 ? { keyLast4: doc.keyLast4 } : {}),
    createdAt: doc.createdAt.toISOString(),
    ...(doc.lastUsedAt ? { lastUsedAt: doc.lastUsedAt.toISOString() } : {}),
    ...(doc.revokedAt ? { revokedAt: doc.revokedAt.toISOString() } : {}),
  };
}

export function createApiKeys(store: Store, options: ApiKeysOptions = {}): ApiKeys {
  const keys: Collection<ApiKeyDoc> = store.collection<ApiKeyDoc>(apiKeysCollection);
  const now = options.now ?? Date.now;
  const lastUsedPrecisionMs = options.lastUsedPrecisionMs ?? 60_000;
  const cache = createVerifiedCache(options.cacheTtlMs ?? 500, options.cacheMaxEntries ?? 10_000, now);

  /**
   * Records that the key was used, at most once per `lastUsedPrecisionMs` across all replicas
   * (the filter only matches an older mark). Not awaited: the request does not wait for it, and
   * a request that presents a cached key causes no store access at all.
   */
  function markUsed(doc: ApiKeyDoc): void {
    const at = now();
    if (doc.lastUsedAt && doc.lastUsedAt.getTime() > at - lastUsedPrecisionMs) return;
    const filter = {
      _id: doc._id,
      $or: [{ lastUsedAt: { $exists: false } }, { lastUsedAt: { $lt: new Date(at - lastUsedPrecisionMs) } }],
    };
    // Deferred (store port): a mark an operating-system crash takes back is only a minute stale.
    keys.updateOne(filter, { $set: { lastUsedAt: new Date(at) } }, { durability: "deferred" }).catch((error: unknown) => {
      options.logger?.warn({ err: error, keyId: doc._id }, "could not record an API key's last use");
    });
  }

  async function lookUp(keyHash: string, environment: string): Promise<VerifiedApiKey | null> {
    const doc = await keys.findOne({ keyHash });
    // A row whose environment disagrees with the key text is never honoured: the prefix is
    // what the holder believes they are using, and test and live must never cross.
    if (!doc || doc.environment !== environment || doc.revokedAt) return null;
    markUsed(doc);
    return { keyId: doc._id, projectId: doc.projectId, environment: doc.environment };
  }

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
        keyLast4: apiKey.slice(-keyLast4Length),
        createdAt: new Date(now()),
      });
      return { apiKey, keyId, environment };
    },

    // Not async: a cached key's promise is handed back as it is, without wrapping it in another.
    verify(apiKey) {
      const match = keyPattern.exec(apiKey);
      if (!match) return Promise.resolve(null);
      const keyHash = hashApiKey(apiKey);
      return cache.get(keyHash, () => lookUp(keyHash, match[1]));
    },

    async list(projectId) {
      const docs = await keys.find({ projectId }, { sort: { createdAt: -1 } });
      return docs.map(summaryOf);
    },

    async revoke(projectId, keyId) {
      // Only an unrevoked key is updated, so a second revocation keeps the first revokedAt.
      await keys.updateOne({ _id: keyId, projectId, revokedAt: { $exists: false } }, { $set: { revokedAt: new Date(now()) } });
      const doc = await keys.findOne({ _id: keyId, projectId });
      if (!doc) return null;
      // This replica refuses it at once; the others when their entry expires.
      cache.forget(doc.keyHash);
      return summaryOf(doc);
    },
  };
}

/**
 * Positive verifications, for `ttlMs`: verification sits on every request's path, and the TTL
 * bounds how long a key revoked on another replica keeps working here. A key presented by many
 * requests at once when its entry expires costs one store read, which they all wait for.
 * Negative results are not kept, so a flood of wrong keys cannot evict the good ones. The map is
 * bounded; Map keeps insertion order, so its first entry is the oldest.
 */
function createVerifiedCache(ttlMs: number, maxEntries: number, now: () => number) {
  type Entry = { value: Promise<VerifiedApiKey | null>; expiresAt: number };
  const entries = new Map<string, Entry>();
  const drop = (keyHash: string, entry: Entry) => {
    if (entries.get(keyHash) === entry) entries.delete(keyHash);
  };
  return {
    get(keyHash: string, load: () => Promise<VerifiedApiKey | null>): Promise<VerifiedApiKey | null> {
      const entry = entries.get(keyHash);
      if (entry && entry.expiresAt > now()) return entry.value;
      entries.delete(keyHash);
      while (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
      const value = load();
      // Shared while the read is in flight; trusted from when the store answered.
      const pending: Entry = { value, expiresAt: Number.POSITIVE_INFINITY };
      entries.set(keyHash, pending);
      value.then(
        (verified) => {
          if (verified) pending.expiresAt = now() + ttlMs;
          else drop(keyHash, pending);
        },
        () => drop(keyHash, pending),
      );
      return value;
    },
    forget(keyHash: string): void {
      entries.delete(keyHash);
    },
  };
}
