import type { Collection, Doc, Filter } from "@bayad/store";
import { resealText, type SealingKeys } from "./secrets.js";

/** One sealed value inside a document: where it sits (a dotted path), and what it was sealed for. */
export interface SealedValue {
  path: string;
  purpose: string;
  context: string;
  sealed: string;
}

/** What a reseal found: values moved to the newest key, values already under it, values no key of the ring opens. */
export interface ResealCounts {
  resealed: number;
  current: number;
  unreadable: number;
}

export const noResealCounts: ResealCounts = Object.freeze({ resealed: 0, current: 0, unreadable: 0 });

export function addResealCounts(a: ResealCounts, b: ResealCounts): ResealCounts {
  return { resealed: a.resealed + b.resealed, current: a.current + b.current, unreadable: a.unreadable + b.unreadable };
}

/** How often one document is read again when it changed between its read and its write. */
const turnsPerDocument = 5;
const pageSize = 200;

/**
 * Seals every sealed value of the collection's documents again under the ring's newest key.
 * Safe beside traffic and beside another reseal: each write is conditional on the values it
 * replaces still being there, so a value changed meanwhile (by a rotation, a new put) is never
 * overwritten with a stale one; the document is read again instead. Running it twice changes
 * nothing the second time. `filter` narrows the scan to the documents that may hold sealed values.
 */
export async function resealCollection<T extends Doc>(
  collection: Collection<T>,
  ring: SealingKeys,
  sealedValuesOf: (doc: T) => SealedValue[],
  filter: Filter = {},
): Promise<ResealCounts> {
  let counts = noResealCounts;
  let after: string | undefined;
  for (;;) {
    const page = await collection.find(after === undefined ? filter : { ...filter, _id: { $gt: after } }, { sort: { _id: 1 }, limit: pageSize });
    for (const doc of page) counts = addResealCounts(counts, await resealDocument(collection, ring, sealedValuesOf, doc));
    if (page.length < pageSize) return counts;
    after = page[page.length - 1]._id;
  }
}

async function resealDocument<T extends Doc>(
  collection: Collection<T>,
  ring: SealingKeys,
  sealedValuesOf: (doc: T) => SealedValue[],
  first: T,
): Promise<ResealCounts> {
  let doc: T | null = first;
  for (let turn = 0; doc && turn < turnsPerDocument; turn++) {
    const counts = { resealed: 0, current: 0, unreadable: 0 };
    const replaced: Record<string, string> = {};
    const resealed: Record<string, string> = {};
    for (const value of sealedValuesOf(doc)) {
      let next: string | undefined;
      try {
        next = resealText(ring, value.purpose, value.context, value.sealed);
      } catch {
        counts.unreadable += 1;
        continue;
      }
      if (next === undefined) {
        counts.current += 1;
        continue;
      }
      replaced[value.path] = value.sealed;
      resealed[value.path] = next;
      counts.resealed += 1;
    }
    if (counts.resealed === 0) return counts;
    const written = await collection.updateOne({ _id: doc._id, ...replaced }, { $set: resealed });
    if (written.matched === 1) return counts;
    doc = await collection.findOne({ _id: doc._id });
  }
  // Gone meanwhile, or changed at every turn: whatever it holds now was written since, and a
  // later reseal finds it.
  return noResealCounts;
}
