import { describe, expect, it } from "vitest";
import type { IndexSpec } from "../port.js";
import { randomUUID } from "node:crypto";
import { expectDuplicateKey, type AnyDoc, type ContractFixture } from "./contract-fixture.js";

const EMAIL_UNIQUE: IndexSpec = { name: "email_unique", keys: { email: 1 }, unique: true };

export function describeIndexContract(fixture: ContractFixture): void {
  describe("_id and unique indexes", () => {
    it("rejects a second document with the same _id and keeps the first", async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "a", v: 1 });
      await expectDuplicateKey(collection.insertOne({ _id: "a", v: 2 }), "_id_");
      expect(await collection.find({})).toEqual([{ _id: "a", v: 1 }]);
    });

    it("enforces a unique index once ensureIndexes has run", async () => {
      const collection = fixture.collection([EMAIL_UNIQUE]);
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a", email: "ana@example.ph" });
      await collection.insertOne({ _id: "b", email: "ben@example.ph" });
      await expectDuplicateKey(collection.insertOne({ _id: "c", email: "ana@example.ph" }), "email_unique");
      expect(await collection.count({})).toBe(2);
    });

    it("does not enforce a declared index before ensureIndexes, which then reports the clash", async () => {
      const collection = fixture.collection([EMAIL_UNIQUE]);
      await collection.insertOne({ _id: "a", email: "same@example.ph" });
      await collection.insertOne({ _id: "b", email: "same@example.ph" });
      expect(await collection.count({})).toBe(2);
      await expectDuplicateKey(fixture.store().ensureIndexes(), "email_unique");
    });

    it("builds a changed index under its new name and drops the retired ones, when a later version declares so", async () => {
      const name = `contract_changed_${randomUUID().slice(0, 8)}`;
      const first = fixture.store().collection<AnyDoc>({ name, indexes: [EMAIL_UNIQUE, { name: "ref_unique", keys: { ref: 1 }, unique: true }] });
      await fixture.store().ensureIndexes();
      await first.insertOne({ _id: "a", email: "ana@example.ph", ref: "r1" });
      await expectDuplicateKey(first.insertOne({ _id: "b", email: "ana@example.ph", ref: "r2" }), "email_unique");

      // The next version of the code (another process on the same database) no longer wants them
      // unique: a changed index never keeps its name (a live index is never rebuilt in place), so
      // the new ones have new names and the old names are retired.
      const later = await fixture.open();
      const second = later.collection<AnyDoc>({
        name,
        indexes: [
          { name: "ref_lookup", keys: { ref: 1, email: 1 } },
          { name: "email_lookup", keys: { email: 1, ref: 1 } },
        ],
        retiredIndexes: ["email_unique", "ref_unique", "never_existed"],
      });
      await later.ensureIndexes();
      await second.insertOne({ _id: "b", email: "ana@example.ph", ref: "r1" });
      await second.insertOne({ _id: "c", email: "ana@example.ph", ref: "r1" });
      expect(await second.count({ _id: { $in: ["b", "c"] }, email: "ana@example.ph", ref: "r1" })).toBe(2);
    });

    it("accepts ensureIndexes twice and keeps enforcing", async () => {
      const collection = fixture.collection([EMAIL_UNIQUE]);
      await fixture.store().ensureIndexes();
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a", email: "ana@example.ph" });
      await expectDuplicateKey(collection.insertOne({ _id: "b", email: "ana@example.ph" }), "email_unique");
    });

    it("treats a missing field as null in a plain unique index", async () => {
      const collection = fixture.collection([EMAIL_UNIQUE]);
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a" });
      await expectDuplicateKey(collection.insertOne({ _id: "b" }), "email_unique");
    });

    it("enforces a compound unique index on the combination of its fields", async () => {
      const collection = fixture.collection([{ name: "tenant_ref_unique", keys: { tenant: 1, ref: 1 }, unique: true }]);
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a", tenant: "t1", ref: "r1" });
      await collection.insertOne({ _id: "b", tenant: "t1", ref: "r2" });
      await collection.insertOne({ _id: "c", tenant: "t2", ref: "r1" });
      await expectDuplicateKey(collection.insertOne({ _id: "d", tenant: "t1", ref: "r1" }), "tenant_ref_unique");
      expect(await collection.count({})).toBe(3);
    });

    it("only constrains the documents a partial unique index covers", async () => {
      const collection = fixture.collection([
        { name: "idempotency_key_unique", keys: { idempotencyKey: 1 }, unique: true, partial: { idempotencyKey: { $exists: true } } },
      ]);
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a" });
      await collection.insertOne({ _id: "b" });
      await collection.insertOne({ _id: "c", idempotencyKey: "k1" });
      await expectDuplicateKey(collection.insertOne({ _id: "d", idempotencyKey: "k1" }), "idempotency_key_unique");
      expect(await collection.count({})).toBe(3);
    });

    it("changes nothing when an update or upsert would break a unique index", async () => {
      const collection = fixture.collection([EMAIL_UNIQUE]);
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a", email: "ana@example.ph" });
      await collection.insertOne({ _id: "b", email: "ben@example.ph" });
      await expectDuplicateKey(collection.updateOne({ _id: "b" }, { $set: { email: "ana@example.ph", note: "x" } }), "email_unique");
      await expectDuplicateKey(collection.findOneAndUpdate({ _id: "b" }, { $set: { email: "ana@example.ph", note: "x" } }), "email_unique");
      await expectDuplicateKey(
        collection.updateOne({ _id: "c" }, { $set: { email: "ana@example.ph" } }, { upsert: true }),
        "email_unique",
      );
      expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: "a", email: "ana@example.ph" },
        { _id: "b", email: "ben@example.ph" },
      ]);
    });

    it("lets a document keep its own unique value when other fields change", async () => {
      const collection = fixture.collection([EMAIL_UNIQUE]);
      await fixture.store().ensureIndexes();
      await collection.insertOne({ _id: "a", email: "ana@example.ph" });
      expect(await collection.updateOne({ _id: "a" }, { $set: { email: "ana@example.ph", verified: true } })).toEqual({
        matched: 1,
        modified: 1,
      });
    });
  });
}
