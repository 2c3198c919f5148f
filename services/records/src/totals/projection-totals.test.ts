import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import type { Environment } from "@bayad/kit";
import type { PaymentRecordType, ProjectedRecord } from "../records/payment-record.js";
import { projectionIn, projectRecord } from "../records/projection.js";
import { recordOf } from "../test-support/records.js";
import { totalsOf } from "./rebuild.js";
import { paymentTotalsCollection, type PaymentTotalsDoc } from "./totals-collection.js";

const statusesOf: Record<PaymentRecordType, (string | null)[]> = {
  checkout: ["created", "pending", "paid", "failed", "expired", null],
  payment_intent: ["pending", "processing", "succeeded", "failed", "cancelled"],
  refund: ["pending", "succeeded", "failed"],
  payment_link: ["active", "paid", "archived"],
  invoice: ["open", "paid", "void"],
  subscription: ["active", "cancelled"],
};

/** One version of a resource: what an event of it would carry. */
const versionFacts = (type: PaymentRecordType) =>
  fc.record({
    status: fc.constantFrom(...statusesOf[type]),
    amount: fc.integer({ min: 0, max: 1_000_000 }),
    fee: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: null }),
    paymentMethod: fc.constantFrom(null, "card", "gcash"),
    providerAccountId: fc.constantFrom(null, "pa_1", "pa_2"),
  });

/** A resource and its versions 1…n, created near a Philippine midnight so days split. */
const resource = (id: string) =>
  fc
    .record({
      type: fc.constantFrom<PaymentRecordType>("checkout", "payment_intent", "refund", "payment_link", "invoice", "subscription"),
      environment: fc.constantFrom<Environment>("test", "live"),
      createdAt: fc.integer({ min: Date.parse("2026-03-09T15:00:00Z"), max: Date.parse("2026-03-10T17:00:00Z") }).map((ms) => new Date(ms)),
    })
    .chain(({ type, environment, createdAt }) =>
      fc.array(versionFacts(type), { minLength: 1, maxLength: 5 }).map((versions) =>
        versions.map(
          (facts, index): ProjectedRecord =>
            recordOf({
              _id: id,
              type,
              environment,
              createdAt,
              ...facts,
              provider: facts.providerAccountId === null ? "sandbox" : "paymongo",
              amount: type === "refund" ? -facts.amount : facts.amount,
              amountMinor: String(type === "refund" ? -facts.amount : facts.amount),
              aggregateVersion: index + 1,
            }),
        ),
      ),
    );

/** Every version of every resource, delivered in any order, some twice, in batches. */
const deliveries = fc
  .tuple(resource("r1"), resource("r2"), resource("r3"), resource("r4"))
  .chain((resources) => {
    const all = resources.flat();
    return fc.record({
      resources: fc.constant(resources),
      order: fc.shuffledSubarray([...all, ...all], { minLength: all.length * 2, maxLength: all.length * 2 }),
      redelivered: fc.subarray(all),
      batchSize: fc.integer({ min: 1, max: 6 }),
    });
  });

const byId = (docs: PaymentTotalsDoc[]) => [...docs].sort((a, b) => a._id.localeCompare(b._id));

describe("the projection's totals", () => {
  let store: Store;

  beforeEach(async () => {
    store = createTestStore();
    store.collection(paymentTotalsCollection);
    await store.ensureIndexes();
  });

  it("equal a recomputation from the records' last versions, whatever the order, redeliveries and batches", async () => {
    await fc.assert(
      fc.asyncProperty(deliveries, async ({ resources, order, redelivered, batchSize }) => {
        const fresh = createTestStore();
        const sequence = [...order, ...redelivered];
        for (let start = 0; start < sequence.length; start += batchSize) {
          const batch = sequence.slice(start, start + batchSize);
          await fresh.transaction(async (session) => {
            const deps = projectionIn(fresh, session, () => new Date());
            for (const record of batch) await projectRecord(deps, record);
          });
        }
        const stored = await fresh.collection<PaymentTotalsDoc>(paymentTotalsCollection).find({});
        const expected = totalsOf(resources.map((versions) => versions[versions.length - 1]!));
        expect(byId(stored)).toEqual(byId([...expected.values()]));
      }),
      { numRuns: 150 },
    );
  });

  it("move a record between documents when its method and account become known, leaving none at zero", async () => {
    const project = (record: ProjectedRecord) => store.transaction((session) => projectRecord(projectionIn(store, session, () => new Date()), record));
    await project(recordOf({ _id: "chk_1", status: "failed", amount: 100_00 }));
    await project(recordOf({ _id: "chk_1", status: "paid", amount: 100_00, fee: 2_50, paymentMethod: "gcash", provider: "paymongo", providerAccountId: "pa_1", aggregateVersion: 2 }));
    const docs = await store.collection<PaymentTotalsDoc>(paymentTotalsCollection).find({}, { sort: { wholeDay: 1 } });
    const paid = { paidCount: 1, paidMinor: 100_00, feeMinor: 2_50, failedCount: 0, failedMinor: 0 };
    expect(docs).toEqual([
      expect.objectContaining({ wholeDay: false, paymentMethod: "gcash", providerAccountId: "pa_1", ...paid }),
      // The day's document over every method and account moved with it.
      expect.objectContaining({ wholeDay: true, paymentMethod: null, providerAccountId: null, ...paid }),
    ]);
  });

  it("are not written when the record's write fails with them", async () => {
    const project = (record: ProjectedRecord) =>
      store.transaction(async (session) => {
        await projectRecord(projectionIn(store, session, () => new Date()), record);
        throw new Error("crash after the writes, before the commit");
      });
    await expect(project(recordOf({ _id: "chk_1", status: "paid" }))).rejects.toThrow(/crash/);
    expect(await store.collection(paymentTotalsCollection).count({})).toBe(0);
  });
});
