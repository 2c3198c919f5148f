import { describe, expect, it } from "vitest";
import { createEmbeddedStore, type Collection, type Doc } from "@bayad/store";
import { parseKeyRing, singleKeyRing } from "./key-ring.js";
import { resealCollection, type SealedValue } from "./reseal.js";
import { openSealed, sealedKeyId, sealText } from "./secrets.js";

interface Holder extends Doc {
  secret: string;
  history: Array<{ sealed: string }>;
}

const oldKey = "the-old-key-of-at-least-32-characters-0000";
const newKey = "the-new-key-of-at-least-32-characters-1111";
const before = singleKeyRing(oldKey);
const rotating = parseKeyRing(`legacy:${oldKey},k2:${newKey}`, 32);

const sealedValuesOf = (doc: Holder): SealedValue[] => [
  { path: "secret", purpose: "p", context: doc._id, sealed: doc.secret },
  ...doc.history.map((entry, index) => ({ path: `history.${index}.sealed`, purpose: "q", context: doc._id, sealed: entry.sealed })),
];

async function holders(count: number): Promise<Collection<Holder>> {
  const collection = createEmbeddedStore().collection<Holder>({ name: "holders" });
  for (let index = 0; index < count; index++) {
    const _id = `h_${String(index).padStart(4, "0")}`;
    await collection.insertOne({ _id, secret: sealText(before, "p", _id, `secret ${index}`), history: [{ sealed: sealText(before, "q", _id, `old ${index}`) }] });
  }
  return collection;
}

describe("resealCollection", () => {
  it("moves every sealed value to the newest key, and a second run finds them all current", async () => {
    // More than one page of documents.
    const collection = await holders(450);
    expect(await resealCollection(collection, rotating, sealedValuesOf)).toEqual({ resealed: 900, current: 0, unreadable: 0 });
    const stored = await collection.find({});
    expect(stored.flatMap((doc) => sealedValuesOf(doc).map((value) => sealedKeyId(value.sealed)))).toEqual(Array(900).fill("k2"));
    const newOnly = parseKeyRing(`k2:${newKey}`, 32);
    expect(openSealed(newOnly, "p", "h_0123", stored[123]!.secret)).toBe("secret 123");
    expect(openSealed(newOnly, "q", "h_0123", stored[123]!.history[0]!.sealed)).toBe("old 123");
    expect(await resealCollection(collection, rotating, sealedValuesOf)).toEqual({ resealed: 0, current: 900, unreadable: 0 });
  });

  it("counts what no key of the ring opens and leaves it as it is", async () => {
    const collection = await holders(1);
    const foreign = sealText("another-key-of-at-least-32-characters-xx", "p", "h_0000", "x");
    await collection.updateOne({ _id: "h_0000" }, { $set: { secret: foreign } });
    expect(await resealCollection(collection, rotating, sealedValuesOf)).toEqual({ resealed: 1, current: 0, unreadable: 1 });
    expect((await collection.findOne({ _id: "h_0000" }))!.secret).toBe(foreign);
  });

  it("never writes a stale value over one changed since it was read", async () => {
    const collection = await holders(1);
    const replacement = sealText(rotating, "p", "h_0000", "written meanwhile");
    let changed = false;
    // The value changes between the reseal's read and its write: the write must not land.
    const racing = (doc: Holder): SealedValue[] => {
      if (!changed) {
        changed = true;
        void collection.updateOne({ _id: doc._id }, { $set: { secret: replacement } });
      }
      return sealedValuesOf(doc);
    };
    const counts = await resealCollection(collection, rotating, racing);
    const stored = (await collection.findOne({ _id: "h_0000" }))!;
    expect(openSealed(rotating, "p", "h_0000", stored.secret)).toBe("written meanwhile");
    expect(sealedKeyId(stored.history[0]!.sealed)).toBe("k2");
    expect(counts).toEqual({ resealed: 1, current: 1, unreadable: 0 });
  });
});
