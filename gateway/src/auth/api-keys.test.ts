import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { apiKeysCollection, createApiKeys } from "./api-keys.js";

type AnyDoc = { _id: string } & Record<string, unknown>;

async function newStore(): Promise<Store> {
  const store = await createEmbeddedStore();
  await store.ensureIndexes();
  return store;
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Replaces the key's last character with a different base62 one. */
function tamper(apiKey: string): string {
  const last = apiKey.at(-1);
  return `${apiKey.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}

describe("createApiKeys", () => {
  it("issues a test key that verifies to its project and environment", async () => {
    const apiKeys = createApiKeys(await newStore());

    const issued = await apiKeys.issue("prj_one", "test");

    expect(issued.apiKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(issued.keyId).toMatch(/^key_[0-9A-Za-z]{24}$/);
    expect(issued.environment).toBe("test");
    expect(await apiKeys.verify(issued.apiKey)).toEqual({
      keyId: issued.keyId,
      projectId: "prj_one",
      environment: "test",
    });
  });

  it("issues a live key that verifies as live", async () => {
    const apiKeys = createApiKeys(await newStore());

    const issued = await apiKeys.issue("prj_one", "live");

    expect(issued.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect((await apiKeys.verify(issued.apiKey))?.environment).toBe("live");
  });

  it("does not verify an unknown, tampered or malformed key", async () => {
    const apiKeys = createApiKeys(await newStore());
    const issued = await apiKeys.issue("prj_one", "test");

    expect(await apiKeys.verify(`sk_test_${"a".repeat(32)}`)).toBeNull();
    expect(await apiKeys.verify(tamper(issued.apiKey))).toBeNull();
    expect(await apiKeys.verify(issued.apiKey.replace("sk_test_", "sk_live_"))).toBeNull();
    expect(await apiKeys.verify(issued.apiKey.slice(0, -1))).toBeNull();
    expect(await apiKeys.verify(`${issued.apiKey}x`)).toBeNull();
    expect(await apiKeys.verify("")).toBeNull();
  });

  it("stores the hash and a short prefix, never the key text", async () => {
    const store = await newStore();
    const apiKeys = createApiKeys(store);
    const issued = await apiKeys.issue("prj_one", "test");

    const stored = await store.collection<AnyDoc>(apiKeysCollection).findOne({ _id: issued.keyId });

    expect(stored).toMatchObject({
      _id: issued.keyId,
      projectId: "prj_one",
      environment: "test",
      keyHash: sha256Hex(issued.apiKey),
      keyPrefix: issued.apiKey.slice(0, 12),
    });
    const text = JSON.stringify(stored);
    expect(text).not.toContain(issued.apiKey);
    expect(text).not.toContain(issued.apiKey.slice("sk_test_".length));
  });

  it("refuses a key whose stored environment disagrees with its prefix", async () => {
    const store = await newStore();
    const apiKeys = createApiKeys(store);
    const apiKey = `sk_test_${"Q".repeat(32)}`;
    await store.collection<AnyDoc>(apiKeysCollection).insertOne({
      _id: "key_mismatch",
      projectId: "prj_one",
      environment: "live",
      keyHash: sha256Hex(apiKey),
      keyPrefix: apiKey.slice(0, 12),
      createdAt: new Date(),
    });

    expect(await apiKeys.verify(apiKey)).toBeNull();
  });

  it("trusts a verified key for at most the cache TTL", async () => {
    const store = await newStore();
    let now = 1_000_000;
    const apiKeys = createApiKeys(store, { cacheTtlMs: 30_000, now: () => now });
    const issued = await apiKeys.issue("prj_one", "test");
    expect(await apiKeys.verify(issued.apiKey)).not.toBeNull();

    await store.collection<AnyDoc>(apiKeysCollection).deleteOne({ _id: issued.keyId });
    now += 29_999;
    expect(await apiKeys.verify(issued.apiKey)).not.toBeNull();
    now += 1;
    expect(await apiKeys.verify(issued.apiKey)).toBeNull();
  });

  it("evicts the oldest cached key when the cache is full", async () => {
    const store = await newStore();
    const apiKeys = createApiKeys(store, { cacheMaxEntries: 2 });
    const first = await apiKeys.issue("prj_one", "test");
    const second = await apiKeys.issue("prj_one", "test");
    const third = await apiKeys.issue("prj_one", "test");
    for (const issued of [first, second, third]) await apiKeys.verify(issued.apiKey);

    await store.collection<AnyDoc>(apiKeysCollection).deleteMany({});

    expect(await apiKeys.verify(first.apiKey)).toBeNull();
    expect(await apiKeys.verify(third.apiKey)).not.toBeNull();
  });

  it("lists a project's keys newest first by prefix and last 4, never the key text", async () => {
    const store = await newStore();
    let now = Date.parse("2030-01-01T00:00:00Z");
    const apiKeys = createApiKeys(store, { now: () => now });
    const older = await apiKeys.issue("prj_one", "test");
    now += 1_000;
    const newer = await apiKeys.issue("prj_one", "live");
    await apiKeys.issue("prj_two", "test");

    const listed = await apiKeys.list("prj_one");

    expect(listed).toEqual([
      { keyId: newer.keyId, environment: "live", keyPrefix: newer.apiKey.slice(0, 12), keyLast4: newer.apiKey.slice(-4), createdAt: "2030-01-01T00:00:01.000Z" },
      { keyId: older.keyId, environment: "test", keyPrefix: older.apiKey.slice(0, 12), keyLast4: older.apiKey.slice(-4), createdAt: "2030-01-01T00:00:00.000Z" },
    ]);
  });

  it("refuses a revoked key at once, and keeps the first revokedAt when revoked again", async () => {
    const store = await newStore();
    let now = Date.parse("2030-01-01T00:00:00Z");
    const apiKeys = createApiKeys(store, { now: () => now });
    const issued = await apiKeys.issue("prj_one", "test");
    expect(await apiKeys.verify(issued.apiKey)).not.toBeNull();

    const revoked = await apiKeys.revoke("prj_one", issued.keyId);
    now += 5_000;
    const again = await apiKeys.revoke("prj_one", issued.keyId);

    expect(revoked?.revokedAt).toBe("2030-01-01T00:00:00.000Z");
    expect(again).toEqual(revoked);
    expect(await apiKeys.verify(issued.apiKey)).toBeNull();
  });

  it("revokes only the named project's key", async () => {
    const store = await newStore();
    const apiKeys = createApiKeys(store);
    const issued = await apiKeys.issue("prj_one", "test");

    expect(await apiKeys.revoke("prj_two", issued.keyId)).toBeNull();
    expect(await apiKeys.revoke("prj_one", "key_unknown")).toBeNull();
    expect(await apiKeys.verify(issued.apiKey)).not.toBeNull();
  });

  it("refuses a key revoked through another replica once its cache entry expires", async () => {
    const store = await newStore();
    let now = 1_000_000;
    const replicaA = createApiKeys(store, { cacheTtlMs: 500, now: () => now });
    const replicaB = createApiKeys(store, { cacheTtlMs: 500, now: () => now });
    const issued = await replicaA.issue("prj_one", "test");
    expect(await replicaB.verify(issued.apiKey)).not.toBeNull();

    await replicaA.revoke("prj_one", issued.keyId);
    now += 499;
    expect(await replicaB.verify(issued.apiKey)).not.toBeNull();
    now += 1;
    expect(await replicaB.verify(issued.apiKey)).toBeNull();
  });

  it("asks the store once for many concurrent verifications of one key", async () => {
    const store = await newStore();
    let reads = 0;
    const collectionOf = store.collection.bind(store);
    store.collection = ((def) => {
      const collection = collectionOf(def);
      const findOne = collection.findOne.bind(collection);
      collection.findOne = (...args) => {
        reads += 1;
        return findOne(...args);
      };
      return collection;
    }) as Store["collection"];
    const apiKeys = createApiKeys(store);
    const issued = await apiKeys.issue("prj_one", "test");

    const results = await Promise.all(Array.from({ length: 20 }, () => apiKeys.verify(issued.apiKey)));

    expect(results.every((result) => result?.keyId === issued.keyId)).toBe(true);
    expect(reads).toBe(1);
  });

  it("records the last use at most once per precision period", async () => {
    const store = await newStore();
    let now = Date.parse("2030-01-01T00:00:00Z");
    const apiKeys = createApiKeys(store, { cacheTtlMs: 500, lastUsedPrecisionMs: 60_000, now: () => now });
    const issued = await apiKeys.issue("prj_one", "test");
    const lastUsed = async () => {
      // The mark is written without holding up the request; a read after it settles sees it.
      await new Promise((resolve) => setImmediate(resolve));
      return (await apiKeys.list("prj_one"))[0]?.lastUsedAt;
    };
    expect(await lastUsed()).toBeUndefined();

    await apiKeys.verify(issued.apiKey);
    expect(await lastUsed()).toBe("2030-01-01T00:00:00.000Z");
    now += 59_000;
    await apiKeys.verify(issued.apiKey);
    expect(await lastUsed()).toBe("2030-01-01T00:00:00.000Z");
    now += 2_000;
    await apiKeys.verify(issued.apiKey);
    expect(await lastUsed()).toBe("2030-01-01T00:01:01.000Z");
  });
});
