import { beforeEach, describe, expect, it } from "vitest";
import { AppError, type CallerContext } from "@bayad/kit";
import { createTestStore, plannedIndex } from "@bayad/store/testing";
import type { Store } from "@bayad/store";
import { everything, listingDeps, recordOf, validationRefusal } from "../test-support/records.js";
import { listPaymentRecords, type ListRecordsDeps, type ListRecordsInput } from "./list-records.js";
import type { ProjectedRecord } from "./payment-record.js";
import { feedFilter, feedSort, paymentRecordsCollection, type FeedQuery } from "./payment-records-repository.js";
import { projectInTransaction } from "./projection.js";
import { metadataPair } from "./record-from-event.js";

const caller: Pick<CallerContext, "projectId" | "environment"> = { projectId: "prj_search", environment: "test" };
const day = (n: number) => new Date(Date.UTC(2026, 2, n));

/** A record as record-from-event.ts fills the search fields: amount a number, metadata as pairs. */
function searchable(overrides: Partial<ProjectedRecord> & Pick<ProjectedRecord, "_id">): ProjectedRecord {
  const metadata = overrides.metadata ?? null;
  const amountMinor = overrides.amountMinor ?? "10000";
  return recordOf({
    projectId: caller.projectId,
    amount: amountMinor === null ? null : Number(amountMinor),
    paymentMethod: null,
    customerId: null,
    providerAccountId: null,
    metadataPairs: metadata === null ? [] : Object.entries(metadata).map(([key, value]) => metadataPair(key, value)),
    ...overrides,
    metadata,
  });
}

describe("searching payment records", () => {
  let deps: ListRecordsDeps;
  let store: Store;
  const project = async (...records: ProjectedRecord[]) => {
    for (const record of records) await projectInTransaction(store, () => new Date(), record);
  };
  const list = (input: Partial<ListRecordsInput> = {}) => listPaymentRecords(deps, caller, { ...everything, ...input });
  const ids = async (input: Partial<ListRecordsInput> = {}) => (await list(input)).records.map((r) => r._id);
  const refusal = (input: Partial<ListRecordsInput>): Promise<AppError> => validationRefusal(list(input));

  beforeEach(async () => {
    store = createTestStore();
    deps = listingDeps(store);
    await store.ensureIndexes();
    await project(
      searchable({ _id: "chk_1", paymentMethod: "gcash", providerAccountId: "pa_1", amountMinor: "5000", metadata: { order: "A-1", channel: "web" }, createdAt: day(1) }),
      searchable({ _id: "chk_2", paymentMethod: "card", providerAccountId: "pa_2", amountMinor: "25000", metadata: { order: "A-2" }, createdAt: day(2) }),
      searchable({ _id: "inv_1", type: "invoice", customerId: "cus_1", amountMinor: "99900", createdAt: day(3) }),
      searchable({ _id: "inv_2", type: "invoice", customerId: "cus_2", amountMinor: "5000", metadata: { channel: "web" }, createdAt: day(4) }),
      searchable({ _id: "ref_1", type: "refund", relatedResourceId: "chk_2", paymentMethod: "card", providerAccountId: "pa_2", amountMinor: "-25000", createdAt: day(5) }),
      searchable({ _id: "pi_1", type: "payment_intent", paymentMethod: "gcash", providerAccountId: "pa_1", amountMinor: "12345", metadata: { channel: "app" }, createdAt: day(6) }),
      // Another project's record matching everything: never listed.
      searchable({ _id: "chk_theirs", projectId: "prj_other", paymentMethod: "gcash", customerId: "cus_1", amountMinor: "5000", metadata: { channel: "web" }, createdAt: day(7) }),
    );
  });

  it("filters by each new field alone", async () => {
    expect(await ids({ customerId: "cus_1" })).toEqual(["inv_1"]);
    expect(await ids({ metadataKey: "channel", metadataValue: "web" })).toEqual(["inv_2", "chk_1"]);
    expect(await ids({ metadataKey: "channel", metadataValue: "we" })).toEqual([]);
    expect(await ids({ metadataKey: "order", metadataValue: "A-2" })).toEqual(["chk_2"]);
    expect(await ids({ paymentMethod: "gcash" })).toEqual(["pi_1", "chk_1"]);
    expect(await ids({ providerAccountId: "pa_2" })).toEqual(["ref_1", "chk_2"]);
    expect(await ids({ amountMin: 5000n, amountMax: 5000n })).toEqual(["inv_2", "chk_1"]);
    expect(await ids({ amountMin: 12345n })).toEqual(["pi_1", "inv_1", "chk_2"]);
    expect(await ids({ amountMax: 5000n })).toEqual(["ref_1", "inv_2", "chk_1"]);
    expect(await ids({ amountMin: -30000n, amountMax: -1n })).toEqual(["ref_1"]);
  });

  it("combines filters, each narrowing the others", async () => {
    expect(await ids({ paymentMethod: "card", type: "refund" })).toEqual(["ref_1"]);
    expect(await ids({ paymentMethod: "gcash", amountMax: 10000n })).toEqual(["chk_1"]);
    expect(await ids({ metadataKey: "channel", metadataValue: "web", type: "invoice" })).toEqual(["inv_2"]);
    expect(await ids({ providerAccountId: "pa_1", metadataKey: "order", metadataValue: "A-1", amountMin: 5000n, amountMax: 5000n })).toEqual(["chk_1"]);
    expect(await ids({ customerId: "cus_1", amountMax: 5000n })).toEqual([]);
    expect(await ids({ paymentMethod: "gcash", createdAfter: day(2) })).toEqual(["pi_1"]);
  });

  it("finds records as the projection replaces them, and never those stored before the fields existed", async () => {
    // A later version moves a record into another method and amount: the filters follow it.
    await project(searchable({ _id: "chk_1", paymentMethod: "maya", amountMinor: "7000", metadata: { order: "A-1b" }, aggregateVersion: 2, createdAt: day(1) }));
    expect(await ids({ paymentMethod: "gcash" })).toEqual(["pi_1"]);
    expect(await ids({ paymentMethod: "maya" })).toEqual(["chk_1"]);
    expect(await ids({ metadataKey: "order", metadataValue: "A-1" })).toEqual([]);
    expect(await ids({ metadataKey: "order", metadataValue: "A-1b" })).toEqual(["chk_1"]);
    expect(await ids({ amountMin: 7000n, amountMax: 7000n })).toEqual(["chk_1"]);
    // Projected before amount and metadataPairs were stored: no amount, no pairs.
    await deps.repository.insertIfAbsent(recordOf({ _id: "chk_old", projectId: caller.projectId, amountMinor: "5000", createdAt: day(8) }), new Date());
    expect(await ids({ amountMin: 5000n, amountMax: 5000n })).toEqual(["inv_2"]);
    expect(await ids({ amountMax: 1_000_000n })).not.toContain("chk_old");
    expect(await ids()).toContain("chk_old");
  });

  it("refuses bad filters, naming each REST field", async () => {
    const long = "x".repeat(256);
    expect((await refusal({ customerId: long, providerAccountId: long })).details).toEqual([
      "customerId: must be at most 255 characters",
      "providerAccountId: must be at most 255 characters",
    ]);
    expect((await refusal({ metadataKey: "", metadataValue: "web" })).details).toEqual(["metadata: must be key=value with a non-empty key"]);
    expect((await refusal({ metadataKey: "k".repeat(41), metadataValue: "web" })).details?.[0]).toMatch(/^metadata: /);
    expect((await refusal({ metadataKey: "k", metadataValue: "v".repeat(501) })).details?.[0]).toMatch(/^metadata: /);
    expect((await refusal({ amountMin: 10n, amountMax: 9n })).details).toEqual(["amountMin: must not exceed amountMax"]);
    const tooBig = await refusal({ amountMin: -1_000_000_000_000_001n, amountMax: 1_000_000_000_000_001n });
    expect(tooBig.details?.map((line) => line.split(":")[0])).toEqual(["amountMin", "amountMax"]);
    expect((await refusal({ paymentMethod: "paymaya" })).details?.[0]).toBe(
      "paymentMethod: must be one of card, qrph, gcash, maya, grabpay, shopeepay, online_banking",
    );
    // The bounds themselves and a key with an empty value are fine.
    await list({ amountMin: -1_000_000_000_000_000n, amountMax: 1_000_000_000_000_000n, metadataKey: "k".repeat(40), metadataValue: "" });
    await list({ metadataKey: "k", metadataValue: "v".repeat(500) });
  });

  it("continues a filtered listing with its cursor", async () => {
    await project(...Array.from({ length: 7 }, (_, n) => searchable({ _id: `pi_m${n}`, type: "payment_intent", paymentMethod: "maya", amountMinor: String(1000 + n), metadata: { batch: "b7" }, createdAt: day(10 + n) })));
    const filters = [{ paymentMethod: "maya" }, { metadataKey: "batch", metadataValue: "b7" }, { amountMin: 1000n, amountMax: 1006n }];
    for (const filter of filters) {
      const seen: string[] = [];
      let cursor = "";
      do {
        const page = await list({ ...filter, limit: 3, cursor });
        seen.push(...page.records.map((r) => r._id));
        cursor = page.nextCursor ?? "";
      } while (cursor !== "");
      expect(seen).toEqual(["pi_m6", "pi_m5", "pi_m4", "pi_m3", "pi_m2", "pi_m1", "pi_m0"]);
    }
  });

  it("refuses a cursor issued for other filters", async () => {
    await project(...Array.from({ length: 4 }, (_, n) => searchable({ _id: `pi_c${n}`, type: "payment_intent", paymentMethod: "maya", customerId: "cus_9", providerAccountId: "pa_9", amountMinor: "777", metadata: { k: "v" }, createdAt: day(10 + n) })));
    const filterSets: Array<Partial<ListRecordsInput>> = [
      {},
      { customerId: "cus_9" },
      { metadataKey: "k", metadataValue: "v" },
      { amountMin: 777n },
      { amountMax: 777n },
      { amountMin: 777n, amountMax: 777n },
      { paymentMethod: "maya" },
      { providerAccountId: "pa_9" },
      { paymentMethod: "maya", customerId: "cus_9" },
    ];
    for (const [i, filter] of filterSets.entries()) {
      const first = await list({ ...filter, limit: 1 });
      expect(first.nextCursor).toBeDefined();
      await list({ ...filter, limit: 1, cursor: first.nextCursor });
      for (const [j, other] of filterSets.entries()) {
        if (i === j) continue;
        const error = await refusal({ ...other, limit: 1, cursor: first.nextCursor });
        expect(error.details?.[0]).toMatch(/^cursor: was issued for other filters/);
      }
    }
  });

  it("walks the index meant for each filter on the embedded store", () => {
    const at = { after: { createdAt: day(3), id: "chk_x" } };
    const cases: Array<[Omit<FeedQuery, "limit">, string]> = [
      [{}, "payment_records_feed"],
      [{ customerId: "cus_1" }, "payment_records_feed_customer"],
      [{ metadata: { key: "channel", value: "web" } }, "payment_records_feed_metadata"],
      [{ paymentMethod: "gcash" }, "payment_records_feed_method"],
      [{ providerAccountId: "pa_1" }, "payment_records_feed_account"],
      [{ amountMin: 5000, amountMax: 5000 }, "payment_records_feed_amount"],
      // A range yields no feed order on the amount index: the feed walk, which stops at the limit, wins.
      [{ amountMin: 5000, amountMax: 9000 }, "payment_records_feed"],
    ];
    for (const [query, index] of cases) {
      for (const position of [{}, at]) {
        const filter = feedFilter(caller, { ...query, ...position });
        expect(plannedIndex(paymentRecordsCollection.indexes ?? [], filter, feedSort, ["payment_records_feed_metadata"]), JSON.stringify(query)).toBe(index);
      }
    }
  });
});
