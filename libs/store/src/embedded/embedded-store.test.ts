import { describe, expect, it } from "vitest";
import type { Doc, Store } from "../port.js";
import { describeStoreContract } from "../test-support/store-contract.js";
import { createEmbeddedStore, type EmbeddedStoreOptions } from "./embedded-store.js";

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
});
