import { describe, expect, it } from "vitest";
import type { ContractFixture } from "./contract-fixture.js";

export function describeUpdateContract(fixture: ContractFixture): void {
  describe("updateOne", () => {
    it("sets top-level and dotted fields, creating intermediate objects", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", amount: { minor: 100 } });
      await collection.updateOne({ _id: "a" }, { $set: { status: "paid", "amount.currency": "PHP", "meta.source.kind": "api" } });
      expect(await collection.findOne({ _id: "a" })).toEqual({
        _id: "a",
        amount: { minor: 100, currency: "PHP" },
        meta: { source: { kind: "api" } },
        status: "paid",
      });
    });

    it("unsets top-level and dotted fields, ignoring ones that are missing", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", keep: 1, drop: 2, nested: { drop: 3, keep: 4 } });
      await collection.updateOne({ _id: "a" }, { $unset: { drop: true, "nested.drop": true, absent: true } });
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", keep: 1, nested: { keep: 4 } });
    });

    it("increments numbers, starting a missing field at the increment", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", count: 5 });
      await collection.updateOne({ _id: "a" }, { $inc: { count: -2, "stats.hits": 3 } });
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", count: 3, stats: { hits: 3 } });
    });

    it("reports matched and modified counts, with nothing modified when the values already hold", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", status: "new" });
      expect(await collection.updateOne({ _id: "a" }, { $set: { status: "paid" } })).toEqual({ matched: 1, modified: 1 });
      expect(await collection.updateOne({ _id: "a" }, { $set: { status: "paid" } })).toEqual({ matched: 1, modified: 0 });
      expect(await collection.updateOne({ _id: "b" }, { $set: { status: "paid" } })).toEqual({ matched: 0, modified: 0 });
    });

    it("updates only the first matching document", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", status: "queued" });
      await collection.insertOne({ _id: "b", status: "queued" });
      await collection.updateOne({ status: "queued" }, { $set: { status: "taken" } });
      expect(await collection.count({ status: "taken" })).toBe(1);
      expect(await collection.count({ status: "queued" })).toBe(1);
    });

    it("ignores $setOnInsert when it updates an existing document", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", createdBy: "first" });
      const result = await collection.updateOne(
        { _id: "a" },
        { $set: { seen: true }, $setOnInsert: { createdBy: "second" } },
        { upsert: true },
      );
      expect(result).toEqual({ matched: 1, modified: 1 });
      expect(result.upsertedId).toBeUndefined();
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", createdBy: "first", seen: true });
    });

    it("upserts a document built from the filter's equalities, $setOnInsert, $set and $inc", async () => {
      const collection = fixture.collection();
      const result = await collection.updateOne(
        { _id: "u1", tenant: "t1", "ref.kind": "order", attempts: { $lt: 3 } },
        { $set: { status: "new" }, $setOnInsert: { createdBy: "api" }, $inc: { count: 1 } },
        { upsert: true },
      );
      expect(result).toEqual({ matched: 0, modified: 0, upsertedId: "u1" });
      expect(await collection.findOne({ _id: "u1" })).toEqual({
        _id: "u1",
        tenant: "t1",
        ref: { kind: "order" },
        status: "new",
        createdBy: "api",
        count: 1,
      });
    });

    it("gives an upserted document a generated string _id when the filter has none", async () => {
      const collection = fixture.collection();
      const { upsertedId } = await collection.updateOne({ tenant: "t2" }, { $set: { status: "new" } }, { upsert: true });
      expect(typeof upsertedId).toBe("string");
      expect(await collection.findOne({ _id: upsertedId })).toEqual({ _id: upsertedId, tenant: "t2", status: "new" });
    });
  });

  describe("findOneAndUpdate", () => {
    it("returns the document after the update by default, and before it when asked", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", n: 1 });
      expect(await collection.findOneAndUpdate({ _id: "a" }, { $inc: { n: 1 } })).toEqual({ _id: "a", n: 2 });
      expect(await collection.findOneAndUpdate({ _id: "a" }, { $inc: { n: 1 } }, { returnDocument: "before" })).toEqual({ _id: "a", n: 2 });
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", n: 3 });
    });

    it("returns null and changes nothing when nothing matches", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", status: "done" });
      expect(await collection.findOneAndUpdate({ status: "open" }, { $set: { status: "taken" } })).toBeNull();
      expect(await collection.count({ status: "taken" })).toBe(0);
    });

    it("takes the first match in sort order", async () => {
      const collection = fixture.collection();
      for (const [id, priority] of [["a", 3], ["b", 1], ["c", 2]] as const) {
        await collection.insertOne({ _id: id, priority, status: "queued" });
      }
      const first = await collection.findOneAndUpdate({ status: "queued" }, { $set: { status: "taken" } }, { sort: { priority: 1 } });
      expect(first?._id).toBe("b");
      const last = await collection.findOneAndUpdate({ status: "queued" }, { $set: { status: "taken" } }, { sort: { priority: -1 } });
      expect(last?._id).toBe("a");
    });

    it("upserts, returning the inserted document after and null before", async () => {
      const collection = fixture.collection();
      const after = await collection.findOneAndUpdate({ _id: "x", kind: "lease" }, { $set: { owner: "w1" } }, { upsert: true });
      expect(after).toEqual({ _id: "x", kind: "lease", owner: "w1" });
      const before = await collection.findOneAndUpdate(
        { _id: "y", kind: "lease" },
        { $set: { owner: "w2" } },
        { upsert: true, returnDocument: "before" },
      );
      expect(before).toBeNull();
      expect(await collection.findOne({ _id: "y" })).toEqual({ _id: "y", kind: "lease", owner: "w2" });
    });
  });

  describe("deleteOne and deleteMany", () => {
    it("deletes one matching document and reports how many it deleted", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", status: "old" });
      await collection.insertOne({ _id: "b", status: "old" });
      expect(await collection.deleteOne({ status: "old" })).toBe(1);
      expect(await collection.count({ status: "old" })).toBe(1);
      expect(await collection.deleteOne({ status: "missing" })).toBe(0);
    });

    it("deletes every matching document and leaves the rest", async () => {
      const collection = fixture.collection();
      for (const [id, status] of [["a", "old"], ["b", "old"], ["c", "new"]] as const) await collection.insertOne({ _id: id, status });
      expect(await collection.deleteMany({ status: "old" })).toBe(2);
      expect((await collection.find({})).map((doc) => doc._id)).toEqual(["c"]);
    });
  });

  describe("document copies", () => {
    it("keeps the stored document when the inserted object is mutated afterwards", async () => {
      const collection = fixture.collection();
      const doc = { _id: "a", nested: { n: 1 }, list: [1], at: new Date(0) };
      await collection.insertOne(doc);
      doc.nested.n = 2;
      doc.list.push(2);
      doc.at.setTime(1_000);
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", nested: { n: 1 }, list: [1], at: new Date(0) });
    });

    it("keeps the stored document when a returned one is mutated", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", nested: { n: 1 }, at: new Date(0) });
      const mutate = (doc: Record<string, unknown> | null | undefined) => {
        (doc?.nested as { n: number }).n = 99;
        (doc?.at as Date).setTime(1_000);
      };
      mutate(await collection.findOne({ _id: "a" }));
      mutate((await collection.find({}))[0]);
      mutate(await collection.findOneAndUpdate({ _id: "a" }, { $set: { touched: true } }));
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", nested: { n: 1 }, at: new Date(0), touched: true });
    });

    it("keeps the stored document when a $set value is mutated after the update", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a" });
      const value = { n: 1 };
      await collection.updateOne({ _id: "a" }, { $set: { value } });
      value.n = 2;
      expect(await collection.findOne({ _id: "a" })).toEqual({ _id: "a", value: { n: 1 } });
    });
  });
}
