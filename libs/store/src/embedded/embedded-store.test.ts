import { describe, expect, it } from "vitest";
import { StoreUnavailableError, type Doc, type Store } from "../port.js";
import { describeStoreContract } from "../test-support/store-contract.js";
import { createEmbeddedStore, type EmbeddedStoreOptions } from "./embedded-store.js";
import { storageFault } from "./lmdb-environment.js";

type AnyDoc = Doc & Record<string, unknown>;

describeStoreContract("embedded", async () => createEmbeddedStore());

async function withStore(test: (store: Store) => Promise<void>, options?: EmbeddedStoreOptions): Promise<void> {
  const store = createEmbeddedStore(options);
  try {
    await test(store);
  } finally {
    await store.close();
  }
}

describe("createEmbeddedStore", () => {
  it("purges documents whose TTL has passed and keeps the rest", () =>
    withStore(
      async (store) => {
        const sessions = store.collection<AnyDoc>({
          name: "sessions",
          indexes: [{ name: "created_ttl", keys: { createdAt: 1 }, expireAfterSeconds: 60 }],
        });
        await store.ensureIndexes();
        const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);
        await sessions.insertOne({ _id: "expired", createdAt: secondsAgo(120) });
        await sessions.insertOne({ _id: "fresh", createdAt: secondsAgo(1) });
        await sessions.insertOne({ _id: "undated", createdAt: "yesterday" });
        await expect.poll(() => sessions.count({ _id: "expired" }), { timeout: 2_000, interval: 10 }).toBe(0);
        expect((await sessions.find({}, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(["fresh", "undated"]);
      },
      { ttlSweepMs: 5 },
    ));

  it("aborts a transaction that outlives its lifetime, such as one waiting for its own write made without the session", () =>
    withStore(
      async (store) => {
        const orders = store.collection<AnyDoc>({ name: "orders" });
        const outcome = await store
          .transaction(async (session) => {
            await orders.insertOne({ _id: "inside" }, { session });
            await orders.insertOne({ _id: "outside" }); // queues behind this very transaction
          })
          .catch((error: unknown) => error);
        expect(outcome).toBeInstanceOf(Error);
        expect((outcome as Error).message).toMatch(/ran longer than 50 ms.*pass \{ session \}/);
        // The queued write went through once the lock was released; the transaction's own did not.
        await expect.poll(() => orders.count({ _id: "outside" }), { timeout: 2_000, interval: 10 }).toBe(1);
        expect(await orders.count({ _id: "inside" })).toBe(0);
        await store.transaction((session) => orders.insertOne({ _id: "later" }, { session }));
        expect(await orders.count({ _id: "later" })).toBe(1);
      },
      { transactionLifetimeMs: 50 },
    ));

  it("applies a write made outside an open transaction after it commits, losing neither", () =>
    withStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      await orders.insertOne({ _id: "o1" });
      let openGate!: () => void;
      const gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
      const transaction = store.transaction(async (session) => {
        await orders.updateOne({ _id: "o1" }, { $set: { status: "paid" } }, { session });
        await gate;
      });
      const outside = orders.updateOne({ _id: "o1" }, { $set: { note: "outside" } });
      openGate();
      await Promise.all([transaction, outside]);
      expect(await orders.findOne({ _id: "o1" })).toEqual({ _id: "o1", status: "paid", note: "outside" });
    }));

  it("rejects a transaction started inside another once it outlives its lifetime", () =>
    withStore(
      async (store) => {
        await expect(store.transaction(() => store.transaction(async () => "inner"))).rejects.toThrow(/ran longer than 50 ms/);
      },
      { transactionLifetimeMs: 50 },
    ));

  it("fails the transaction when a write in it failed, even if work caught the error", () =>
    withStore(async (store) => {
      const users = store.collection<AnyDoc>({ name: "users" });
      await users.insertOne({ _id: "u1" });
      const attempt = store.transaction(async (session) => {
        await users.insertOne({ _id: "u2" }, { session });
        await users.insertOne({ _id: "u1" }, { session }).catch(() => undefined);
        await expect(users.count({}, { session })).rejects.toThrow(/duplicate key/);
      });
      await expect(attempt).rejects.toThrow(/duplicate key/);
      expect(await users.count({})).toBe(1);
    }));

  it("rejects a session used after its transaction ended", () =>
    withStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      const leaked = await store.transaction(async (session) => session);
      await expect(orders.insertOne({ _id: "o1" }, { session: leaked })).rejects.toThrow(/not an open transaction/);
    }));

  it("rejects filters and updates outside the supported subset", () =>
    withStore(async (store) => {
      const orders = store.collection<AnyDoc>({ name: "orders" });
      await orders.insertOne({ _id: "o1", status: "new", count: "three" });
      await expect(orders.find({ status: { $regex: "n" } })).rejects.toThrow(/Unsupported filter operator \$regex/);
      await expect(orders.find({ $nor: [{ status: "new" }] })).rejects.toThrow(/Unsupported filter operator \$nor/);
      await expect(orders.updateOne({ _id: "o1" }, { $push: { tags: "x" } } as never)).rejects.toThrow(/Unsupported update operator/);
      await expect(orders.updateOne({ _id: "o1" }, { $set: { a: 1 }, $unset: { "a.b": true } })).rejects.toThrow(/conflict/);
      await expect(orders.updateOne({ _id: "o1" }, { $inc: { count: 1 } })).rejects.toThrow(/non-numeric/);
      await expect(orders.updateOne({ _id: "o1" }, { $set: { _id: "o2" } })).rejects.toThrow(/immutable field '_id'/);
      expect(await orders.find({})).toEqual([{ _id: "o1", status: "new", count: "three" }]);
    }));

  it("walks an index range in both directions around a document whose _id is empty", () =>
    withStore(async (store) => {
      // With a single-field index, the entry of `_id` "" is exactly the bound of its value's range.
      const indexed = store.collection<AnyDoc>({ name: "indexed", indexes: [{ name: "t", keys: { t: 1 } }] });
      const scanned = store.collection<AnyDoc>({ name: "scanned" });
      await store.ensureIndexes();
      for (const doc of [{ _id: "", t: 1 }, { _id: "a", t: 1 }, { _id: "b", t: 2 }, { _id: "c", t: 0 }]) {
        await indexed.insertOne(doc);
        await scanned.insertOne(doc);
      }
      for (const filter of [{ t: { $lt: 1 } }, { t: { $lte: 1 } }, { t: { $gt: 1 } }, { t: { $gte: 1, $lt: 2 } }, { t: 1 }]) {
        for (const sort of [{ t: 1 }, { t: -1 }] as const) {
          const answer = async (collection: typeof indexed) => {
            const docs = await collection.find(filter, { sort });
            return { order: docs.map((doc) => doc.t), ids: docs.map((doc) => doc._id).sort() };
          };
          expect(await answer(indexed)).toEqual(await answer(scanned));
        }
      }
    }));

  it("answers a full disk or unwritable files as StoreUnavailableError, and other faults as they are", () => {
    const full = Object.assign(new Error("No space left on device"), { code: 28 });
    expect(storageFault(full)).toBeInstanceOf(StoreUnavailableError);
    expect(storageFault(full)?.cause).toBe(full);
    expect(storageFault(Object.assign(new Error("EROFS: read-only file system, open"), { code: "EROFS" }))).toBeInstanceOf(StoreUnavailableError);
    expect(storageFault(new Error("MDB_MAP_FULL: Environment mapsize limit reached"))).toBeInstanceOf(StoreUnavailableError);
    expect(storageFault(new Error("Documents need a string _id"))).toBeUndefined();
  });
});
