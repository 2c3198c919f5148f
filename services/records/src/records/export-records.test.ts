import { beforeEach, describe, expect, it } from "vitest";
import { AppError, createCursorCodec, newId, type CallerContext } from "@bayad/kit";
import { createTestStore } from "@bayad/store/testing";
import { noFilters, recordOf } from "../test-support/records.js";
import { exportPaymentRecords } from "./export-records.js";
import { listPaymentRecords, type ListRecordsDeps } from "./list-records.js";
import type { PaymentRecordDoc } from "./payment-record.js";
import { createPaymentRecordsRepository } from "./payment-records-repository.js";
import type { RecordFiltersInput } from "./record-filters.js";

const caller: Pick<CallerContext, "projectId" | "environment"> = { projectId: "prj_export", environment: "test" };
const methods = ["card", "gcash", "maya"] as const;

describe("exportPaymentRecords", () => {
  let deps: ListRecordsDeps;
  const exported = async (filters: Partial<RecordFiltersInput>, batchSize: number) => {
    const batches: PaymentRecordDoc[][] = [];
    for await (const batch of exportPaymentRecords(deps, caller, { ...noFilters, ...filters }, undefined, batchSize)) batches.push(batch);
    return batches;
  };
  const listed = async (filters: Partial<RecordFiltersInput>) => {
    const ids: string[] = [];
    let cursor = "";
    do {
      const page = await listPaymentRecords(deps, caller, { ...noFilters, ...filters, limit: 200, cursor });
      ids.push(...page.records.map((r) => r._id));
      cursor = page.nextCursor ?? "";
    } while (cursor !== "");
    return ids;
  };

  beforeEach(async () => {
    const store = createTestStore();
    deps = { repository: createPaymentRecordsRepository(store), cursors: createCursorCodec("k".repeat(43), "records-cursor") };
    await store.ensureIndexes();
    const base = Date.UTC(2026, 1, 1);
    // Five records per instant, so ties straddle batch boundaries and only the id orders them.
    for (let n = 0; n < 1200; n++) {
      const amount = 100 * (n % 50);
      await deps.repository.insertIfAbsent(
        recordOf({
          _id: newId("pi"),
          type: "payment_intent",
          projectId: n % 10 === 9 ? "prj_other" : caller.projectId,
          paymentMethod: methods[n % 3],
          amountMinor: String(amount),
          amount,
          createdAt: new Date(base + Math.floor(n / 5) * 1000),
        }),
        new Date(),
      );
    }
  });

  it("streams exactly the listing's records, in its order, in full batches", async () => {
    for (const filters of [{}, { paymentMethod: "gcash" }, { amountMin: 1000n, amountMax: 2000n }, { paymentMethod: "maya", amountMax: 300n }]) {
      const batches = await exported(filters, 37);
      const ids = batches.flat().map((r) => r._id);
      const expected = await listed(filters);
      expect(expected.length).toBeGreaterThan(20);
      expect(ids).toEqual(expected);
      // Every batch but the last is full.
      expect(batches.slice(0, -1).every((batch) => batch.length === 37)).toBe(true);
      expect(batches.at(-1)!.length).toBeGreaterThan(0);
    }
    // The whole project: 1080 of the 1200.
    expect((await exported({}, 500)).map((batch) => batch.length)).toEqual([500, 500, 80]);
  });

  it("streams nothing when nothing matches", async () => {
    expect(await exported({ customerId: "cus_none" }, 500)).toEqual([]);
  });

  it("refuses bad filters before streaming anything, naming each field", () => {
    const call = () => exportPaymentRecords(deps, caller, { ...noFilters, paymentMethod: "cash", amountMin: 5n, amountMax: 1n });
    expect(call).toThrow(AppError);
    try {
      call();
    } catch (error) {
      expect((error as AppError).code).toBe("VALIDATION_FAILED");
      expect((error as AppError).details).toEqual(["amountMin: must not exceed amountMax", expect.stringMatching(/^paymentMethod: /)]);
    }
  });

  it("reads a page only when the previous batch was taken, and stops once aborted", async () => {
    const abort = new AbortController();
    const batches = exportPaymentRecords(deps, caller, noFilters, abort.signal, 100);
    const first = await batches.next();
    expect(first.value).toHaveLength(100);
    // A record added now just after the position is in the next batch: that page was not read ahead.
    const position = (first.value as PaymentRecordDoc[]).at(-1)!.createdAt;
    const late = recordOf({ _id: "pi_late", type: "payment_intent", projectId: caller.projectId, createdAt: new Date(position.getTime() - 1) });
    await deps.repository.insertIfAbsent(late, new Date());
    const second = await batches.next();
    expect((second.value as PaymentRecordDoc[]).map((r) => r._id)).toContain("pi_late");
    abort.abort();
    expect(await batches.next()).toEqual({ done: true, value: undefined });
  });
});
