import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareStrings, compareValues, toBson } from "./bson-values.js";
import { documentKey, encodeKey, idOffset, indexPrefix } from "./index-keys.js";

/**
 * LMDB orders index entries by their bytes; queries, sorts and unique checks rely on that order
 * being BSON's. The reference order here is `compareValues` field by field (each in its
 * direction), then `_id` by code point.
 */

type Key = { values: unknown[]; id: string };

function referenceOrder(a: Key, b: Key, directions: readonly (1 | -1)[]): number {
  for (let i = 0; i < directions.length; i++) {
    const order = compareValues(a.values[i], b.values[i]);
    if (order !== 0) return order * (directions[i] as number);
  }
  return compareStrings(a.id, b.id);
}

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.string({ unit: fc.constantFrom("a", "b", "\0", "\u00ff", "\uffff", "😀"), maxLength: 4 }),
);
const number = fc.oneof(fc.double(), fc.integer({ min: -3, max: 3 }), fc.constantFrom(0, -0, NaN, Infinity, -Infinity));
const date = fc.date({ noInvalidDate: true });
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, undefined, true, false),
    number,
    text,
    date,
    fc.array(tie("value"), { maxLength: 3 }).map((items) => items.map((item) => (item === undefined ? null : item))),
    // As stored: toBson drops undefined fields.
    fc.dictionary(fc.constantFrom("a", "b", "c", "1", "z\0"), tie("value"), { maxKeys: 3 }).map(toBson),
  ),
}));

const directions = fc.array(fc.constantFrom<1 | -1>(1, -1), { minLength: 1, maxLength: 3 });
const keyFor = (width: number) => fc.record({ values: fc.array(value, { minLength: width, maxLength: width }), id: text });

const PREFIX = indexPrefix(7);

describe("index key encoding", () => {
  it("sorts keys by their bytes exactly as BSON orders their values, in either direction", () => {
    fc.assert(
      fc.property(
        directions.chain((dirs) => fc.tuple(fc.constant(dirs), keyFor(dirs.length), keyFor(dirs.length))),
        ([dirs, a, b]) => {
          const bytes = Buffer.compare(encodeKey(PREFIX, a.values, dirs, a.id), encodeKey(PREFIX, b.values, dirs, b.id));
          expect(Math.sign(bytes)).toBe(Math.sign(referenceOrder(a, b, dirs)));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("gives equal values equal bytes and different values different bytes", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const same = encodeKey(PREFIX, [a], [1]).equals(encodeKey(PREFIX, [b], [1]));
        expect(same).toBe(compareValues(a, b) === 0);
      }),
      { numRuns: 5_000 },
    );
  });

  it("brackets every key that starts with a prefix between the prefix's lower and upper bounds", () => {
    fc.assert(
      fc.property(
        directions.chain((dirs) => fc.tuple(fc.constant(dirs), keyFor(dirs.length), fc.nat({ max: dirs.length }))),
        ([dirs, key, width]) => {
          const entry = encodeKey(PREFIX, key.values, dirs, key.id);
          const leading = key.values.slice(0, width);
          expect(Buffer.compare(encodeKey(PREFIX, leading, dirs), entry)).toBeLessThanOrEqual(0);
          expect(Buffer.compare(encodeKey(PREFIX, leading, dirs, undefined, true), entry)).toBe(1);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("finds the _id of an entry after its encoded values", () => {
    fc.assert(
      fc.property(
        directions.chain((dirs) => fc.tuple(fc.constant(dirs), keyFor(dirs.length))),
        ([dirs, key]) => {
          const entry = encodeKey(PREFIX, key.values, dirs, key.id);
          expect(entry.toString("utf8", idOffset(entry, PREFIX.length, dirs.length))).toBe(key.id);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("keeps the entries of one index apart from every other index's", () => {
    const low = encodeKey(indexPrefix(1), ["\uffff".repeat(8)], [1], "\uffff", true);
    const high = encodeKey(indexPrefix(2), [null], [-1], "");
    expect(Buffer.compare(low, high)).toBe(-1);
  });

  it("orders document keys by _id code point within a collection", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(Buffer.compare(documentKey(3, a), documentKey(3, b)))).toBe(Math.sign(compareStrings(a, b)));
      }),
    );
  });
});
