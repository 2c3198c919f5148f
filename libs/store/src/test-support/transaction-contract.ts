import { describe, expect, it } from "vitest";
import { expectDuplicateKey, type ContractFixture } from "./contract-fixture.js";

export function describeTransactionContract(fixture: ContractFixture): void {
  describe("transactions", () => {
    it("makes every write visible together on commit and returns the result of work", async () => {
      const orders = fixture.collection();
      const ledger = fixture.collection();
      await orders.insertOne({ _id: "o1", status: "new" });
      await ledger.insertOne({ _id: "stale" });
      const result = await fixture.store().transaction(async (session) => {
        await orders.updateOne({ _id: "o1" }, { $set: { status: "paid" } }, { session });
        await ledger.insertOne({ _id: "e1", order: "o1", amount: 100 }, { session });
        await ledger.deleteOne({ _id: "stale" }, { session });
        return "committed";
      });
      expect(result).toBe("committed");
      expect(await orders.findOne({ _id: "o1" })).toEqual({ _id: "o1", status: "paid" });
      expect(await ledger.find({})).toEqual([{ _id: "e1", order: "o1", amount: 100 }]);
    });

    it("makes deferred writes visible at once, alone or in a transaction, with the same rules", async () => {
      const users = fixture.collection([{ name: "email_unique", keys: { email: 1 }, unique: true }]);
      await fixture.store().ensureIndexes();
      await users.insertOne({ _id: "u1", email: "ana@example.ph" }, { durability: "deferred" });
      expect(await users.findOne({ email: "ana@example.ph" })).toEqual({ _id: "u1", email: "ana@example.ph" });
      await expectDuplicateKey(users.insertOne({ _id: "u2", email: "ana@example.ph" }, { durability: "deferred" }), "email_unique");
      await users.updateOne({ _id: "u1" }, { $set: { verified: true } }, { durability: "deferred" });
      const seen = await fixture.store().transaction(
        async (session) => {
          await users.insertOne({ _id: "u3", email: "ben@example.ph" }, { session });
          return users.find({}, { session, sort: { _id: 1 } });
        },
        { durability: "deferred" },
      );
      expect(seen.map((user) => user._id)).toEqual(["u1", "u3"]);
      expect(await users.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: "u1", email: "ana@example.ph", verified: true },
        { _id: "u3", email: "ben@example.ph" },
      ]);
    });

    it("rolls back every write and rethrows when work throws", async () => {
      const orders = fixture.collection();
      await orders.insertOne({ _id: "o1", status: "new" });
      const failure = new Error("payment provider refused");
      const attempt = fixture.store().transaction(async (session) => {
        await orders.updateOne({ _id: "o1" }, { $set: { status: "paid" } }, { session });
        await orders.insertOne({ _id: "o2", status: "new" }, { session });
        await orders.deleteOne({ _id: "o1" }, { session });
        throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(await orders.find({})).toEqual([{ _id: "o1", status: "new" }]);
    });

    it("aborts the whole transaction when a write in it breaks a unique index", async () => {
      const users = fixture.collection([{ name: "email_unique", keys: { email: 1 }, unique: true }]);
      await fixture.store().ensureIndexes();
      await users.insertOne({ _id: "u1", email: "ana@example.ph" });
      const attempt = fixture.store().transaction(async (session) => {
        await users.insertOne({ _id: "u2", email: "ben@example.ph" }, { session });
        await users.updateOne({ _id: "u1" }, { $set: { renamed: true } }, { session });
        await users.insertOne({ _id: "u3", email: "ben@example.ph" }, { session });
      });
      await expectDuplicateKey(attempt, "email_unique");
      expect(await users.find({})).toEqual([{ _id: "u1", email: "ana@example.ph" }]);
    });

    it("lets a transaction give a unique value to another document once it moved it off the first", async () => {
      const users = fixture.collection([{ name: "email_unique", keys: { email: 1 }, unique: true }]);
      await fixture.store().ensureIndexes();
      await users.insertOne({ _id: "u1", email: "ana@example.ph" });
      await users.insertOne({ _id: "u2", email: "ben@example.ph" });
      const attempt = fixture.store().transaction(async (session) => {
        await users.updateOne({ _id: "u1" }, { $set: { email: "ana.old@example.ph" } }, { session });
        await users.insertOne({ _id: "u3", email: "ana@example.ph" }, { session });
        await users.deleteOne({ _id: "u2" }, { session });
        await users.updateOne({ _id: "u3" }, { $set: { email: "ben@example.ph" } }, { session });
        // ben@ was freed by the delete and taken again by u3 within this transaction.
        await users.insertOne({ _id: "u4", email: "ben@example.ph" }, { session });
      });
      await expectDuplicateKey(attempt, "email_unique");
      // The refused write doomed the transaction, so none of it landed.
      expect(await users.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: "u1", email: "ana@example.ph" },
        { _id: "u2", email: "ben@example.ph" },
      ]);
      await fixture.store().transaction(async (session) => {
        await users.updateOne({ _id: "u1" }, { $set: { email: "ana.old@example.ph" } }, { session });
        await users.insertOne({ _id: "u3", email: "ana@example.ph" }, { session });
      });
      expect(await users.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: "u1", email: "ana.old@example.ph" },
        { _id: "u2", email: "ben@example.ph" },
        { _id: "u3", email: "ana@example.ph" },
      ]);
      expect(await users.findOne({ email: "ana@example.ph" })).toEqual({ _id: "u3", email: "ana@example.ph" });
    });

    it("shows its writes to reads with the session and hides them from reads without it until commit", async () => {
      const orders = fixture.collection();
      await orders.insertOne({ _id: "o1", status: "new" });
      await fixture.store().transaction(async (session) => {
        await orders.updateOne({ _id: "o1" }, { $set: { status: "paid" } }, { session });
        await orders.insertOne({ _id: "o2", status: "new" }, { session });
        expect(await orders.findOne({ _id: "o1" }, { session })).toEqual({ _id: "o1", status: "paid" });
        expect(await orders.count({}, { session })).toBe(2);
        expect(await orders.findOne({ _id: "o1" })).toEqual({ _id: "o1", status: "new" });
        expect(await orders.find({})).toEqual([{ _id: "o1", status: "new" }]);
        await orders.deleteOne({ _id: "o2" }, { session });
        expect(await orders.count({}, { session })).toBe(1);
      });
      expect(await orders.find({})).toEqual([{ _id: "o1", status: "paid" }]);
    });

    it("serializes concurrent read-modify-write transactions so no update is lost", async () => {
      const counters = fixture.collection();
      await counters.insertOne({ _id: "c", value: 0 });
      const transactions = 10;
      await Promise.all(
        Array.from({ length: transactions }, () =>
          fixture.store().transaction(async (session) => {
            const current = await counters.findOne({ _id: "c" }, { session });
            await counters.updateOne({ _id: "c" }, { $set: { value: Number(current?.value) + 1 } }, { session });
          }),
        ),
      );
      expect(await counters.findOne({ _id: "c" })).toEqual({ _id: "c", value: transactions });
    });
  });

  describe("ping and close", () => {
    it("answers ping while open", async () => {
      await expect(fixture.store().ping()).resolves.toBeUndefined();
    });

    it("rejects ping and operations once closed", async () => {
      const store = await fixture.open();
      const collection = store.collection({ name: "closed_store_probe" });
      await store.close();
      await expect(store.ping()).rejects.toThrow();
      await expect(collection.findOne({})).rejects.toThrow();
      await expect(collection.insertOne({ _id: "a" })).rejects.toThrow();
    });
  });
}
