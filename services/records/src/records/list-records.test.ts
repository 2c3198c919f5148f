import { beforeEach, describe, expect, it } from "vitest";
import { AppError, newId, type CallerContext } from "@bayad/kit";
import { everything, listingDeps, recordOf, validationRefusal } from "../test-support/records.js";
import { listPaymentRecords, type ListRecordsDeps, type ListRecordsInput } from "./list-records.js";
import type { ProjectedRecord } from "./payment-record.js";
import { projectInTransaction } from "./projection.js";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";

const caller: Pick<CallerContext, "projectId" | "environment"> = { projectId: "prj_records", environment: "test" };
const day = (n: number) => new Date(Date.UTC(2026, 0, n));

describe("listPaymentRecords", () => {
  let store: Store;
  let deps: ListRecordsDeps;
  const seed = async (...records: ProjectedRecord[]) => {
    for (const record of records) await deps.repository.insertIfAbsent(record, new Date());
  };
  const list = (input: Partial<ListRecordsInput> = {}, who = caller) => listPaymentRecords(deps, who, { ...everything, ...input });
  const ids = async (input: Partial<ListRecordsInput> = {}, who = caller) => (await list(input, who)).records.map((r) => r._id);
  const refusal = (input: Partial<ListRecordsInput>): Promise<AppError> => validationRefusal(list(input));

  beforeEach(async () => {
    store = createTestStore();
    deps = listingDeps(store);
    await store.ensureIndexes();
  });

  it("lists newest first, ties in descending id order", async () => {
    await seed(
      recordOf({ _id: "chk_a", createdAt: day(1) }),
      recordOf({ _id: "chk_c", createdAt: day(2) }),
      recordOf({ _id: "chk_b", createdAt: day(2) }),
      recordOf({ _id: "chk_d", createdAt: day(3) }),
    );
    expect(await ids()).toEqual(["chk_d", "chk_c", "chk_b", "chk_a"]);
  });

  it("lists only the caller's project and environment", async () => {
    await seed(
      recordOf({ _id: "chk_mine" }),
      recordOf({ _id: "chk_live", environment: "live" }),
      recordOf({ _id: "chk_theirs", projectId: "prj_other" }),
    );
    expect(await ids()).toEqual(["chk_mine"]);
    expect(await ids({}, { projectId: "prj_records", environment: "live" })).toEqual(["chk_live"]);
  });

  it("filters by type and by status", async () => {
    await seed(
      recordOf({ _id: "chk_1", status: "paid", createdAt: day(1) }),
      recordOf({ _id: "ref_1", type: "refund", status: "succeeded", amountMinor: "-100", createdAt: day(2) }),
      recordOf({ _id: "ref_2", type: "refund", status: "pending", amountMinor: "-200", createdAt: day(3) }),
      recordOf({ _id: "pi_1", type: "payment_intent", status: "succeeded", createdAt: day(4) }),
    );
    expect(await ids({ type: "refund" })).toEqual(["ref_2", "ref_1"]);
    expect(await ids({ status: "succeeded" })).toEqual(["pi_1", "ref_1"]);
    expect(await ids({ type: "refund", status: "succeeded" })).toEqual(["ref_1"]);
    expect(await ids({ type: "invoice" })).toEqual([]);
  });

  it("filters by referenceId and by relatedResourceId, exact matches only", async () => {
    await seed(
      recordOf({ _id: "chk_1", referenceId: "order-42", createdAt: day(1) }),
      recordOf({ _id: "chk_2", referenceId: "order-420", createdAt: day(2) }),
      recordOf({ _id: "ref_1", type: "refund", referenceId: null, relatedResourceId: "chk_1", createdAt: day(3) }),
      recordOf({ _id: "ref_2", type: "refund", referenceId: null, relatedResourceId: "chk_1", createdAt: day(4) }),
      recordOf({ _id: "ref_3", type: "refund", referenceId: null, relatedResourceId: "chk_2", createdAt: day(5) }),
    );
    expect(await ids({ referenceId: "order-42" })).toEqual(["chk_1"]);
    expect(await ids({ referenceId: "order-4" })).toEqual([]);
    expect(await ids({ relatedResourceId: "chk_1" })).toEqual(["ref_2", "ref_1"]);
    expect(await ids({ relatedResourceId: "chk_1", type: "checkout" })).toEqual([]);
    const long = "x".repeat(256);
    expect((await refusal({ referenceId: long, relatedResourceId: long })).details).toEqual([
      "referenceId: must be at most 255 characters",
      "relatedResourceId: must be at most 255 characters",
    ]);
  });

  it("binds referenceId and relatedResourceId into the cursor", async () => {
    await seed(...Array.from({ length: 4 }, (_, n) => recordOf({ _id: `ref_${n}`, type: "refund", referenceId: "order-7", relatedResourceId: "chk_7", createdAt: day(n + 1) })));
    for (const filter of [{ referenceId: "order-7" }, { relatedResourceId: "chk_7" }]) {
      const first = await list({ ...filter, limit: 2 });
      expect((await list({ ...filter, limit: 2, cursor: first.nextCursor })).records.map((r) => r._id)).toEqual(["ref_1", "ref_0"]);
      for (const other of [{ referenceId: "" , relatedResourceId: "" }, { referenceId: "order-8" }, { relatedResourceId: "chk_8" }]) {
        if (Object.entries(other).every(([key, value]) => Object.entries(filter).some(([k, v]) => k === key && v === value))) continue;
        const error = await refusal({ ...filter, ...other, cursor: first.nextCursor });
        expect(error.details?.[0]).toMatch(/^cursor: was issued for other filters/);
      }
    }
    // And a cursor of the unfiltered listing does not continue a filtered one.
    const unfiltered = await list({ limit: 1 });
    expect((await refusal({ relatedResourceId: "chk_7", cursor: unfiltered.nextCursor })).details?.[0]).toMatch(/^cursor: /);
  });

  it("takes createdAfter inclusively and createdBefore exclusively", async () => {
    await seed(...[1, 2, 3, 4, 5].map((n) => recordOf({ _id: `chk_${n}`, createdAt: day(n) })));
    expect(await ids({ createdAfter: day(2), createdBefore: day(4) })).toEqual(["chk_3", "chk_2"]);
    expect(await ids({ createdAfter: day(5) })).toEqual(["chk_5"]);
    expect(await ids({ createdBefore: day(1) })).toEqual([]);
  });

  it("pages 50 by default, up to 200, and refuses other sizes naming limit", async () => {
    await seed(...Array.from({ length: 230 }, (_, n) => recordOf({ _id: `chk_${String(n).padStart(3, "0")}` })));
    const first = await list();
    expect(first.records).toHaveLength(50);
    expect(first.nextCursor).toBeDefined();
    expect((await list({ limit: 1 })).records).toHaveLength(1);
    expect((await list({ limit: 200 })).records).toHaveLength(200);
    for (const limit of [201, -1, 1.5]) expect((await refusal({ limit })).details).toEqual(["limit: must be from 1 to 200"]);
  });

  it("refuses an unknown type and unreadable dates, naming each", async () => {
    expect((await refusal({ type: "customer" })).details?.[0]).toMatch(/^type: /);
    const dates = await refusal({ createdAfter: new Date(Number.NaN), createdBefore: new Date(Number.NaN) });
    expect(dates.details).toEqual(["createdAfter: must be a date-time", "createdBefore: must be a date-time"]);
  });

  it("leaves nextCursor out on the last page, also when it is exactly full", async () => {
    await seed(...Array.from({ length: 4 }, (_, n) => recordOf({ _id: `chk_${n}` })));
    const first = await list({ limit: 2 });
    expect(first.nextCursor).toBeDefined();
    const second = await list({ limit: 2, cursor: first.nextCursor });
    expect(second.records.map((r) => r._id)).toEqual(["chk_1", "chk_0"]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("continues with another page size but not with other filters", async () => {
    await seed(...Array.from({ length: 6 }, (_, n) => recordOf({ _id: `ref_${n}`, type: "refund", status: "succeeded", createdAt: day(n + 1) })));
    const filters = { type: "refund", status: "succeeded", createdAfter: day(1), createdBefore: day(30) };
    const first = await list({ ...filters, limit: 2 });
    expect((await list({ ...filters, limit: 3, cursor: first.nextCursor })).records.map((r) => r._id)).toEqual(["ref_3", "ref_2", "ref_1"]);

    const others = [{ type: "" }, { type: "checkout" }, { status: "pending" }, { createdAfter: day(2) }, { createdBefore: undefined }];
    for (const other of others) {
      const error = await refusal({ ...filters, ...other, cursor: first.nextCursor });
      expect(error.details?.[0]).toMatch(/^cursor: was issued for other filters/);
    }
  });

  it("refuses a tampered or garbage cursor, naming cursor", async () => {
    await seed(...Array.from({ length: 3 }, (_, n) => recordOf({ _id: `chk_${n}` })));
    const { nextCursor } = await list({ limit: 1 });
    const tampered = `${nextCursor!.slice(0, 3)}${nextCursor![3] === "x" ? "y" : "x"}${nextCursor!.slice(4)}`;
    expect((await refusal({ cursor: tampered })).details?.[0]).toMatch(/^cursor: /);
    expect((await refusal({ cursor: "garbage" })).details?.[0]).toMatch(/^cursor: /);
  });

  it("walks thousands of records exactly once while records are added and updated", async () => {
    const base = Date.UTC(2025, 5, 1);
    // Seven records per instant, so ties straddle page boundaries and only the id orders them.
    const initial = Array.from({ length: 3000 }, (_, n) =>
      recordOf({ _id: newId("pi"), type: "payment_intent", status: "pending", createdAt: new Date(base + Math.floor(n / 7) * 1000) }),
    );
    await seed(...initial);

    let walking = true;
    let produced = 0;
    let version = 1;
    const addAndUpdate = async (n: number) => {
      // A new payment (newest, so before any cursor), a lagging projection of an old one (it
      // may or may not be seen, but never twice), and a status change of an existing record.
      await projectInTransaction(store, () => new Date(), recordOf({ _id: newId("chk"), createdAt: new Date() }));
      await projectInTransaction(
        store,
        () => new Date(),
        recordOf({ _id: newId("ref"), type: "refund", createdAt: new Date(base + (n % 400) * 1000) }),
      );
      const target = initial[(n * 37) % initial.length]!;
      await projectInTransaction(
        store,
        () => new Date(),
        { ...target, status: "succeeded", aggregateVersion: ++version, createdAt: new Date() },
      );
      produced += 1;
    };
    const background = (async () => {
      for (let n = 0; walking; n++) await addAndUpdate(n);
    })();

    const seen = new Map<string, number>();
    let cursor = "";
    let pages = 0;
    do {
      const page = await list({ limit: 200, cursor });
      for (const record of page.records) seen.set(record._id, (seen.get(record._id) ?? 0) + 1);
      cursor = page.nextCursor ?? "";
      pages += 1;
      await addAndUpdate(10_000 + pages);
    } while (cursor !== "");
    walking = false;
    await background;

    expect(produced).toBeGreaterThan(pages);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    const missing = initial.filter((record) => seen.get(record._id) !== 1);
    expect(missing).toEqual([]);
  });
});
