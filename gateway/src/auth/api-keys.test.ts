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
});
