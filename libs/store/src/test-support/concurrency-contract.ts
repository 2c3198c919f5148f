import { describe, expect, it } from "vitest";
import { isDuplicateKeyError } from "../port.js";
import type { ContractFixture } from "./contract-fixture.js";

const CONTENDERS = 50;

export function describeConcurrencyContract(fixture: ContractFixture): void {
  describe("concurrent writes", () => {
    it(`gives exactly one of ${CONTENDERS} concurrent conditional claims the document`, async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "job", status: "open" });
      const claims = await Promise.all(
        Array.from({ length: CONTENDERS }, (_, worker) =>
          collection.findOneAndUpdate({ _id: "job", status: "open" }, { $set: { status: "claimed", worker } }),
        ),
      );
      const winners = claims.filter((claim) => claim !== null);
      expect(winners).toHaveLength(1);
      expect(await collection.findOne({ _id: "job" })).toEqual(winners[0]);
    });

    it(`accepts exactly one of ${CONTENDERS} concurrent inserts of the same _id`, async () => {
      const collection = fixture.collection();
      const outcomes = await Promise.allSettled(
        Array.from({ length: CONTENDERS }, (_, writer) => collection.insertOne({ _id: "same", writer })),
      );
      const rejections = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      expect(rejections).toHaveLength(CONTENDERS - 1);
      expect(rejections.every((reason) => isDuplicateKeyError(reason, "_id_"))).toBe(true);
    });

    it(`loses no increment among ${CONTENDERS} concurrent updates`, async () => {
      const collection = fixture.collection();
      await collection.insertOne({ _id: "counter", value: 0 });
      await Promise.all(Array.from({ length: CONTENDERS }, () => collection.updateOne({ _id: "counter" }, { $inc: { value: 1 } })));
      expect(await collection.findOne({ _id: "counter" })).toEqual({ _id: "counter", value: CONTENDERS });
    });
  });
}
