import { describe, expect, it } from "vitest";
import { idsMatching, type AnyDoc, type ContractFixture } from "./contract-fixture.js";

const day = (iso: string): Date => new Date(`${iso}T00:00:00.000Z`);

/** Four documents covering every filter case: numbers, a number-like string, dates, nesting, arrays, null and missing fields. */
const FILTER_DOCS: AnyDoc[] = [
  { _id: "1", n: 1, s: "apple", at: day("2024-01-01"), nested: { code: "A", level: 1 }, tags: ["red", "green"], flag: true },
  { _id: "2", n: 5, s: "banana", at: day("2024-02-01"), nested: { code: "B", level: 2 }, tags: ["yellow"], nul: null },
  { _id: "3", n: 10, s: "cherry", at: day("2024-03-01"), nested: { code: "C" }, tags: [], flag: false },
  { _id: "4", n: "7", s: "10", items: [{ sku: "x", qty: 1 }, { sku: "y", qty: 2 }] },
];

export function describeQueryContract(fixture: ContractFixture): void {
  async function seeded() {
    const collection = fixture.collection();
    for (const doc of FILTER_DOCS) await collection.insertOne(doc);
    return collection;
  }

  describe("insertOne, findOne, find and count", () => {
    it("stores a document with nested objects, arrays and dates and finds it by _id", async () => {
      const collection = fixture.collection();
      const doc = { _id: "p1", amount: { minor: 12_345, currency: "PHP" }, at: day("2024-05-06"), tags: ["a", "b"], note: null };
      await collection.insertOne(doc);
      const found = await collection.findOne({ _id: "p1" });
      expect(found).toEqual(doc);
      expect(found?.at).toBeInstanceOf(Date);
    });

    it("lists a collection once a document is written to it", async () => {
      const collection = fixture.collection();
      expect(await fixture.store().listCollections()).not.toContain(collection.name);
      await collection.insertOne({ _id: "first" });
      expect(await fixture.store().listCollections()).toContain(collection.name);
    });

    it("returns null from findOne and an empty list from find when nothing matches", async () => {
      const collection = await seeded();
      expect(await collection.findOne({ s: "durian" })).toBeNull();
      expect(await collection.find({ s: "durian" })).toEqual([]);
    });

    it("counts the documents a filter matches", async () => {
      const collection = await seeded();
      expect(await collection.count({})).toBe(4);
      expect(await collection.count({ n: { $gte: 5 } })).toBe(2);
      expect(await fixture.collection().count({})).toBe(0);
    });

    it("drops fields whose value is undefined instead of storing them", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "u", kept: 1, dropped: undefined });
      const found = await collection.findOne({ _id: "u" });
      expect(found === null ? [] : Object.keys(found).sort()).toEqual(["_id", "kept"]);
    });
  });

  describe("filters", () => {
    it("matches equality on a top-level field and on a dotted path", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { s: "banana" })).toEqual(["2"]);
      expect(await idsMatching(collection, { "nested.code": "B", s: "banana" })).toEqual(["2"]);
      expect(await idsMatching(collection, { "nested.code": "B", s: "apple" })).toEqual([]);
    });

    it("lets null equality match both a null and a missing field", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { nul: null })).toEqual(["1", "2", "3", "4"]);
      expect(await idsMatching(collection, { flag: null })).toEqual(["2", "4"]);
      expect(await idsMatching(collection, { "nested.level": null })).toEqual(["3", "4"]);
    });

    it("applies $eq and $ne, where $ne also matches a missing field", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { n: { $eq: 5 } })).toEqual(["2"]);
      expect(await idsMatching(collection, { n: { $ne: 5 } })).toEqual(["1", "3", "4"]);
      expect(await idsMatching(collection, { flag: { $ne: null } })).toEqual(["1", "3"]);
    });

    it("applies $gt, $gte, $lt and $lte only to values of the same type", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { n: { $gt: 1, $lte: 10 } })).toEqual(["2", "3"]);
      expect(await idsMatching(collection, { n: { $gte: 1, $lt: 10 } })).toEqual(["1", "2"]);
      expect(await idsMatching(collection, { n: { $gt: 0 } })).toEqual(["1", "2", "3"]);
      expect(await idsMatching(collection, { n: { $gte: "0" } })).toEqual(["4"]);
      expect(await idsMatching(collection, { s: { $lt: "b" } })).toEqual(["1", "4"]);
    });

    it("compares dates by time, for equality and ranges", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { at: day("2024-03-01") })).toEqual(["3"]);
      expect(await idsMatching(collection, { at: { $gte: day("2024-02-01"), $lt: day("2024-03-01") } })).toEqual(["2"]);
      expect(await idsMatching(collection, { at: { $in: [day("2024-01-01"), day("2024-03-01")] } })).toEqual(["1", "3"]);
      expect(await idsMatching(collection, { at: { $gt: 0 } })).toEqual([]);
    });

    it("applies $in and $nin, where null stands for a missing field", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { s: { $in: ["apple", "cherry", "durian"] } })).toEqual(["1", "3"]);
      expect(await idsMatching(collection, { s: { $nin: ["apple", "cherry"] } })).toEqual(["2", "4"]);
      expect(await idsMatching(collection, { flag: { $in: [null, false] } })).toEqual(["2", "3", "4"]);
      expect(await idsMatching(collection, { flag: { $nin: [null] } })).toEqual(["1", "3"]);
    });

    it("applies $exists, where a null value exists", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { flag: { $exists: true } })).toEqual(["1", "3"]);
      expect(await idsMatching(collection, { "nested.level": { $exists: false } })).toEqual(["3", "4"]);
      expect(await idsMatching(collection, { nul: { $exists: true } })).toEqual(["2"]);
    });

    it("combines filters with top-level $and and $or", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { $or: [{ s: "apple" }, { "nested.code": "C" }] })).toEqual(["1", "3"]);
      expect(await idsMatching(collection, { $and: [{ n: { $gte: 1 } }, { n: { $lte: 5 } }] })).toEqual(["1", "2"]);
      expect(await idsMatching(collection, { flag: { $exists: true }, $or: [{ n: 1 }, { n: 5 }] })).toEqual(["1"]);
    });

    it("matches an array field by element or as a whole, and reaches into arrays of objects", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { tags: "green" })).toEqual(["1"]);
      expect(await idsMatching(collection, { tags: ["yellow"] })).toEqual(["2"]);
      expect(await idsMatching(collection, { tags: [] })).toEqual(["3"]);
      expect(await idsMatching(collection, { tags: { $in: ["yellow", "red"] } })).toEqual(["1", "2"]);
      expect(await idsMatching(collection, { "items.sku": "y" })).toEqual(["4"]);
    });

    it("matches an embedded document only when it is exactly equal, field order included", async () => {
      const collection = await seeded();
      expect(await idsMatching(collection, { nested: { code: "A", level: 1 } })).toEqual(["1"]);
      expect(await idsMatching(collection, { nested: { level: 1, code: "A" } })).toEqual([]);
      expect(await idsMatching(collection, { nested: { code: "A" } })).toEqual([]);
    });
  });

  describe("sort, skip and limit", () => {
    it("sorts ascending and descending", async () => {
      const collection = fixture.collection();
      for (const [id, n] of [["a", 3], ["b", 1], ["c", 2]] as const) await collection.insertOne({ _id: id, n });
      expect((await collection.find({}, { sort: { n: 1 } })).map((doc) => doc._id)).toEqual(["b", "c", "a"]);
      expect((await collection.find({}, { sort: { n: -1 } })).map((doc) => doc._id)).toEqual(["a", "c", "b"]);
    });

    it("orders missing and null lowest, then numbers, strings and dates", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "date", v: day("2020-01-01") });
      await collection.insertOne({ _id: "string", v: "b" });
      await collection.insertOne({ _id: "number", v: 2 });
      await collection.insertOne({ _id: "null", v: null });
      await collection.insertOne({ _id: "missing" });
      const ascending = (await collection.find({}, { sort: { v: 1 } })).map((doc) => doc._id);
      expect(ascending.slice(0, 2).sort()).toEqual(["missing", "null"]);
      expect(ascending.slice(2)).toEqual(["number", "string", "date"]);
      const descending = (await collection.find({}, { sort: { v: -1 } })).map((doc) => doc._id);
      expect(descending.slice(0, 3)).toEqual(["date", "string", "number"]);
    });

    it("orders strings by code point, not by locale", async () => {
      const collection = fixture.collection();
      for (const id of ["b", "B", "a", "A"]) await collection.insertOne({ _id: id });
      expect((await collection.find({}, { sort: { _id: 1 } })).map((doc) => doc._id)).toEqual(["A", "B", "a", "b"]);
    });

    it("sorts by several keys in order", async () => {
      const collection = fixture.collection();
      const rows = [["a", "x", 1], ["b", "y", 5], ["c", "x", 3], ["d", "y", 2]] as const;
      for (const [id, group, rank] of rows) await collection.insertOne({ _id: id, group, rank });
      const sorted = await collection.find({}, { sort: { group: 1, rank: -1 } });
      expect(sorted.map((doc) => doc._id)).toEqual(["c", "a", "b", "d"]);
    });

    it("pages through sorted results with skip and limit", async () => {
      const collection = fixture.collection();
      for (let n = 1; n <= 7; n++) await collection.insertOne({ _id: `d${n}`, n });
      const page = async (skip: number) =>
        (await collection.find({ n: { $gt: 1 } }, { sort: { n: -1 }, skip, limit: 2 })).map((doc) => doc.n);
      expect(await page(0)).toEqual([7, 6]);
      expect(await page(2)).toEqual([5, 4]);
      expect(await page(4)).toEqual([3, 2]);
      expect(await page(6)).toEqual([]);
    });

    it("returns the first document in sort order from findOne", async () => {
      const collection = await seeded();
      expect((await collection.findOne({ n: { $gte: 1 } }, { sort: { n: -1 } }))?._id).toBe("3");
      expect((await collection.findOne({}, { sort: { s: 1 }, skip: 1 }))?._id).toBe("1");
    });
  });
}
