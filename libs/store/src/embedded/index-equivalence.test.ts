import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Collection, Doc, Filter, IndexSpec, Session, SortSpec, Store } from "../port.js";
import { createEmbeddedStore } from "./embedded-store.js";

/**
 * The embedded store walks indexes instead of scanning whenever a query allows it. Whatever the
 * writes (inserts, updates that move keys, deletes, committed and aborted transactions) and
 * whatever the query, an indexed collection must answer exactly as an unindexed one holding the
 * same documents.
 */

type AnyDoc = Doc & Record<string, unknown>;

const DATES = [0, 1, 2, 3].map((day) => new Date(Date.UTC(2026, 0, 1 + day)));
const INDEXES: IndexSpec[] = [
  { name: "feed", keys: { p: 1, e: 1, t: -1, _id: -1 } },
  { name: "kind_time", keys: { k: 1, t: 1, _id: 1 } },
  { name: "time", keys: { t: 1, _id: 1 } },
  { name: "project_kind", keys: { p: 1, k: 1 } },
];

const scalar = fc.oneof(fc.constant(null), fc.constantFrom("a", "b"), fc.integer({ min: 0, max: 3 }), fc.constantFrom(...DATES));
/** A field value, `undefined` standing for a missing field. */
const fieldValue = fc.oneof(scalar, fc.constant(undefined), fc.array(fc.constantFrom("a", "b", 1), { maxLength: 2 }));
const fields = fc.record({
  p: fc.constantFrom("p1", "p2"),
  e: fc.constantFrom("test", "live", undefined),
  t: fc.oneof(fc.constantFrom(...DATES), fc.integer({ min: 0, max: 3 }), fc.constant(undefined)),
  k: fieldValue,
});

type Fields = { p: string; e?: string; t?: unknown; k?: unknown };
type Write =
  | { kind: "insert"; fields: Fields }
  | { kind: "update"; pick: number; fields: Partial<Fields> }
  | { kind: "delete"; pick: number };
type Step = Write | { kind: "transaction"; writes: Write[]; commit: boolean };

const write: fc.Arbitrary<Write> = fc.oneof(
  { weight: 4, arbitrary: fields.map((value) => ({ kind: "insert" as const, fields: value })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("update" as const), pick: fc.nat(), fields: fc.record({ t: fields.map((f) => f.t), k: fieldValue }, { requiredKeys: [] }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: write },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("transaction" as const), writes: fc.array(write, { maxLength: 4 }), commit: fc.boolean() }) },
);

const rangeOperand = fc.oneof(fc.constantFrom(...DATES), fc.integer({ min: 0, max: 3 }));
const range = fc.record(
  { $gt: rangeOperand, $gte: rangeOperand, $lt: rangeOperand, $lte: rangeOperand },
  { requiredKeys: [] },
);
const query = fc.record({
  p: fc.option(fc.constantFrom("p1", "p2"), { nil: undefined }),
  e: fc.option(fc.oneof(fc.constantFrom("test", "live", null), fc.constant({ $eq: "live" })), { nil: undefined }),
  k: fc.option(fc.oneof(scalar, fc.constant({ $in: ["a", 1] })), { nil: undefined }),
  t: fc.option(range, { nil: undefined }),
  after: fc.option(fc.record({ t: fc.constantFrom(...DATES), id: fc.constantFrom("d00003", "d00010") }), { nil: undefined }),
  sort: fc.constantFrom<SortSpec | undefined>(
    { t: -1, _id: -1 },
    { t: 1, _id: 1 },
    { k: 1, t: 1, _id: 1 },
    { _id: -1 },
    { t: -1, _id: 1 },
    undefined,
  ),
  limit: fc.integer({ min: 0, max: 4 }),
  skip: fc.integer({ min: 0, max: 2 }),
});
type Query = typeof query extends fc.Arbitrary<infer Q> ? Q : never;

function filterOf(q: Query): Filter {
  const filter: Filter = {};
  if (q.p !== undefined) filter.p = q.p;
  if (q.e !== undefined) filter.e = q.e;
  if (q.k !== undefined) filter.k = q.k;
  if (q.t !== undefined && Object.keys(q.t).length > 0) filter.t = q.t;
  if (q.after !== undefined) {
    // The records feed's keyset continuation, with the redundant bound that lets an index seek.
    filter.$or = [{ t: { $lt: q.after.t } }, { t: q.after.t, _id: { $lt: q.after.id } }];
    if (filter.t === undefined) filter.t = { $lte: q.after.t };
  }
  return filter;
}

function withoutMissing(value: Fields | Partial<Fields>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}

/**
 * Applies `steps` to each collection in turn; inserted documents get ids `<prefix>00000`,
 * `<prefix>00001`, … With `session`, every write (there are no transaction steps then) is made in it.
 */
async function apply(
  store: Store,
  collections: Collection<AnyDoc>[],
  ids: string[],
  steps: Step[],
  options: { prefix?: string; session?: Session } = {},
): Promise<void> {
  // Each write picks its document on its first collection and the same one on the others.
  const picked = new Map<Write, string>();
  let inserted = 0;
  const idOf = (change: Write): string => {
    let id = picked.get(change);
    if (id === undefined) {
      id = change.kind === "insert" ? `${options.prefix ?? "d"}${String(inserted++).padStart(5, "0")}` : (ids[change.pick % ids.length] as string);
      picked.set(change, id);
      if (change.kind === "insert") ids.push(id);
    }
    return id;
  };
  const applyWrite = async (target: Collection<AnyDoc>, change: Write, session?: Session) => {
    if (change.kind === "insert") {
      await target.insertOne({ _id: idOf(change), ...withoutMissing(change.fields) }, { session });
    } else if (ids.length > 0) {
      const _id = idOf(change);
      if (change.kind === "delete") await target.deleteOne({ _id }, { session });
      else {
        const unset = Object.fromEntries(Object.entries(change.fields).filter(([, v]) => v === undefined).map(([key]) => [key, true as const]));
        const set = withoutMissing(change.fields);
        if (Object.keys(set).length + Object.keys(unset).length === 0) return;
        await target.updateOne({ _id }, { ...(Object.keys(set).length > 0 ? { $set: set } : {}), ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) }, { session });
      }
    }
  };
  for (const current of steps) {
    for (const target of collections) {
      if (current.kind !== "transaction") {
        await applyWrite(target, current, options.session);
        continue;
      }
      await store
        .transaction(async (session) => {
          for (const change of current.writes) await applyWrite(target, change, session);
          if (!current.commit) throw new Error("abort");
        })
        .catch((error: unknown) => {
          if ((error as Error).message !== "abort") throw error;
        });
    }
  }
}

describe("indexed queries on the embedded store", () => {
  it("answer exactly as a scan of the same documents, after any writes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.array(query, { minLength: 1, maxLength: 6 }), async (steps, queries) => {
        const store = createEmbeddedStore();
        try {
          const indexed = store.collection<AnyDoc>({ name: "indexed", indexes: INDEXES.map((index) => ({ ...index })) });
          const scanned = store.collection<AnyDoc>({ name: "scanned" });
          await store.ensureIndexes();
          await apply(store, [indexed, scanned], [], steps);
          expect(await indexed.find({}, { sort: { _id: 1 } })).toEqual(await scanned.find({}, { sort: { _id: 1 } }));
          for (const q of queries) {
            const filter = filterOf(q);
            expect(await indexed.count(filter)).toBe(await scanned.count(filter));
            if (q.sort === undefined) {
              // Without a sort the order (and so which documents a limit keeps) is unspecified.
              const byId = (docs: AnyDoc[]) => docs.map((doc) => doc._id).sort();
              expect(byId(await indexed.find(filter))).toEqual(byId(await scanned.find(filter)));
            } else {
              const options = { sort: q.sort, limit: q.limit, skip: q.skip };
              expect(await indexed.find(filter, options)).toEqual(await scanned.find(filter, options));
            }
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 300 },
    );
    // 300 stores opened and filled: seconds on an idle machine, far more on a loaded one.
  }, 120_000);
});

/** Writes that move or remove stored documents more often than `write`'s do, so staged versions hide committed matches. */
const stagedWrite: fc.Arbitrary<Write> = fc.oneof(
  { weight: 1, arbitrary: write.filter((change) => change.kind === "insert") },
  { weight: 2, arbitrary: write.filter((change) => change.kind === "update") },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }) },
);

/** `query` with each condition dropped half of the time, so that more queries match something to page through. */
const broadQuery: fc.Arbitrary<Query> = fc
  .tuple(query, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }))
  .map(([q, keep]) => ({
    ...q,
    p: keep[0] ? q.p : undefined,
    e: keep[1] ? q.e : undefined,
    k: keep[2] ? q.k : undefined,
    t: keep[3] ? q.t : undefined,
    after: keep[4] ? q.after : undefined,
  }));

describe("reads inside a transaction on the embedded store", () => {
  it("answer with the transaction's staged writes exactly as the same writes would once committed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 10, maxLength: 40 }),
        fc.array(stagedWrite, { minLength: 1, maxLength: 8 }),
        fc.array(broadQuery, { minLength: 1, maxLength: 6 }),
        async (steps, pending, queries) => {
          const store = createEmbeddedStore();
          try {
            // Both hold the same documents; then `staged` gets `pending` in an open transaction and
            // `direct` gets them written outside one.
            const staged = store.collection<AnyDoc>({ name: "staged", indexes: INDEXES.map((index) => ({ ...index })) });
            const direct = store.collection<AnyDoc>({ name: "direct" });
            await store.ensureIndexes();
            const ids: string[] = [];
            await apply(store, [staged, direct], ids, steps);
            await apply(store, [direct], [...ids], pending, { prefix: "n" });
            await store.transaction(async (session) => {
              await apply(store, [staged], [...ids], pending, { prefix: "n", session });
              const sorted = { sort: { _id: 1 as const }, session };
              expect(await staged.find({}, sorted)).toEqual(await direct.find({}, { sort: { _id: 1 } }));
              for (const q of queries) {
                const filter = filterOf(q);
                expect(await staged.count(filter, { session })).toBe(await direct.count(filter));
                if (q.sort === undefined) {
                  const byId = (docs: AnyDoc[]) => docs.map((doc) => doc._id).sort();
                  expect(byId(await staged.find(filter, { session }))).toEqual(byId(await direct.find(filter)));
                } else {
                  const options = { sort: q.sort, limit: q.limit, skip: q.skip };
                  expect(await staged.find(filter, { ...options, session })).toEqual(await direct.find(filter, options));
                }
              }
              throw new Error("abort");
            }).catch((error: unknown) => {
              if ((error as Error).message !== "abort") throw error;
            });
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 300 },
    );
    // 300 stores opened and filled: seconds on an idle machine, far more on a loaded one.
  }, 120_000);
});
