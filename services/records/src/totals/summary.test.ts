import { beforeEach, describe, expect, it } from "vitest";
import { AppError, type CallerContext } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import type { ProjectedRecord } from "../records/payment-record.js";
import { projectInTransaction } from "../records/projection.js";
import { recordOf } from "../test-support/records.js";
import { getPaymentsSummary, MAX_SUMMARY_ROWS, paymentTotalsToProto, type SummaryInput } from "./summary.js";
import { createPaymentTotalsRepository, type PaymentTotalsRepository } from "./totals-repository.js";

const caller: Pick<CallerContext, "projectId" | "environment"> = { projectId: "prj_records", environment: "test" };
/** An instant given in Philippine time. */
const manila = (local: string) => new Date(`${local}+08:00`);
let serial = 0;
const paid = (local: string, amount: number, overrides: Partial<ProjectedRecord> = {}) =>
  recordOf({ _id: `chk_${++serial}`, status: "paid", amount, amountMinor: String(amount), fee: 0, createdAt: manila(local), ...overrides });

describe("getPaymentsSummary", () => {
  let store: Store;
  let totals: PaymentTotalsRepository;
  const seed = async (...records: ProjectedRecord[]) => {
    for (const record of records) await projectInTransaction(store, () => new Date(), record);
  };
  const summary = (input: Partial<SummaryInput>, who = caller) =>
    getPaymentsSummary(totals, who, { from: "2026-03-01", to: "2026-03-31", granularity: "", groupBy: [], ...input });
  const rows = async (input: Partial<SummaryInput>) =>
    (await summary(input)).periods.map((row) => ({ ...row, paid: Number(row.totals.paidMinor), totals: undefined }));
  const refusal = async (input: Partial<SummaryInput>): Promise<string[]> => {
    const error = await summary(input).then(
      () => new Error("the summary was answered"),
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe("VALIDATION_FAILED");
    return error.details ?? [];
  };

  beforeEach(async () => {
    store = createTestStore();
    totals = createPaymentTotalsRepository(store);
    await store.ensureIndexes();
  });

  it("counts a record on its Philippine day, lists every day of the range with zeros, and totals it", async () => {
    await seed(paid("2026-03-01T23:59:59.999", 100), paid("2026-03-02T00:00:00.000", 200), paid("2026-03-03T07:59:00", 400));
    const answer = await summary({ from: "2026-03-01", to: "2026-03-04" });
    expect(answer.periods.map((row) => [row.start, row.end, row.totals.paidMinor])).toEqual([
      ["2026-03-01", "2026-03-01", 100n],
      ["2026-03-02", "2026-03-02", 200n],
      ["2026-03-03", "2026-03-03", 400n],
      ["2026-03-04", "2026-03-04", 0n],
    ]);
    expect(answer.total).toMatchObject({ paidCount: 3n, paidMinor: 700n });
  });

  it("leaves out records outside the range, of another environment or another project", async () => {
    await seed(
      paid("2026-02-28T23:59:59", 1),
      paid("2026-03-05T00:00:00", 2),
      paid("2026-03-05T12:00:00", 4, { environment: "live" }),
      paid("2026-03-05T12:00:00", 8, { projectId: "prj_other" }),
      paid("2026-03-06T00:00:00", 16),
    );
    expect((await summary({ from: "2026-03-01", to: "2026-03-05" })).total.paidMinor).toBe(2n);
  });

  it("splits weeks Monday to Sunday and months by the calendar, clipping the first and last to the range", async () => {
    // 2026-03-01 is a Sunday, 2026-03-02 a Monday.
    await seed(paid("2026-03-01T10:00", 1), paid("2026-03-08T23:00", 2), paid("2026-03-09T00:30", 4), paid("2026-03-18T00:00", 8));
    expect(await rows({ from: "2026-03-01", to: "2026-03-18", granularity: "week" })).toEqual([
      { start: "2026-03-01", end: "2026-03-01", paid: 1, totals: undefined },
      { start: "2026-03-02", end: "2026-03-08", paid: 2, totals: undefined },
      { start: "2026-03-09", end: "2026-03-15", paid: 4, totals: undefined },
      { start: "2026-03-16", end: "2026-03-18", paid: 8, totals: undefined },
    ]);
    await seed(paid("2026-01-31T23:59", 16), paid("2026-02-01T00:00", 32), paid("2026-02-28T23:59", 64), paid("2026-04-15T00:00", 128));
    expect(await rows({ from: "2026-01-15", to: "2026-04-15", granularity: "month" })).toEqual([
      { start: "2026-01-15", end: "2026-01-31", paid: 16, totals: undefined },
      { start: "2026-02-01", end: "2026-02-28", paid: 96, totals: undefined },
      { start: "2026-03-01", end: "2026-03-31", paid: 15, totals: undefined },
      { start: "2026-04-01", end: "2026-04-15", paid: 128, totals: undefined },
    ]);
  });

  it("splits every period by the groups the range has, unknown method and sandbox as null", async () => {
    await seed(
      paid("2026-03-01T10:00", 1, { paymentMethod: "gcash", providerAccountId: "pa_1" }),
      paid("2026-03-01T11:00", 2),
      paid("2026-03-02T10:00", 4, { paymentMethod: "gcash", providerAccountId: "pa_2" }),
    );
    const byMethod = await summary({ from: "2026-03-01", to: "2026-03-02", groupBy: ["payment_method"] });
    expect(byMethod.periods.map((row) => [row.start, row.paymentMethod, row.providerAccountId, row.totals.paidMinor])).toEqual([
      ["2026-03-01", null, undefined, 2n],
      ["2026-03-01", "gcash", undefined, 1n],
      ["2026-03-02", null, undefined, 0n],
      ["2026-03-02", "gcash", undefined, 4n],
    ]);
    const byBoth = await summary({ from: "2026-03-02", to: "2026-03-02", groupBy: ["payment_method", "provider_account"] });
    expect(byBoth.periods.map((row) => [row.paymentMethod, row.providerAccountId, row.totals.paidMinor])).toEqual([["gcash", "pa_2", 4n]]);
    expect(byBoth.total.paidMinor).toBe(4n);
  });

  it("lists each period once, ungrouped and zero, when a grouped range has no records", async () => {
    const answer = await summary({ from: "2026-03-01", to: "2026-03-02", groupBy: ["provider_account"] });
    expect(answer.periods.map((row) => [row.start, row.providerAccountId, row.totals.paidCount])).toEqual([
      ["2026-03-01", undefined, 0n],
      ["2026-03-02", undefined, 0n],
    ]);
  });

  it("sums fees, failures and refunds, and answers net = paid − fees − refunded as text", async () => {
    await seed(
      paid("2026-03-01T10:00", 1000_00, { fee: 25_00 }),
      paid("2026-03-01T10:00", 500_00, { fee: null }),
      recordOf({ _id: "chk_failed", status: "failed", amount: 300_00, createdAt: manila("2026-03-01T10:00") }),
      recordOf({ _id: "ref_1", type: "refund", status: "succeeded", amount: -200_00, fee: 1_00, createdAt: manila("2026-03-01T10:00") }),
    );
    const { total } = await summary({ from: "2026-03-01", to: "2026-03-01" });
    expect(paymentTotalsToProto(total)).toMatchObject({
      paidCount: 2n,
      paidMinor: "150000",
      failedCount: 1n,
      failedMinor: "30000",
      refundedCount: 1n,
      refundedMinor: "20000",
      feeMinor: "2600",
      netMinor: String(1500_00 - 26_00 - 200_00),
      unreportedFeeCount: 1n,
    });
  });

  it("refuses what it cannot answer, naming the field", async () => {
    expect(await refusal({ from: "2026-02-30" })).toEqual(["from: must be a day, YYYY-MM-DD"]);
    expect(await refusal({ to: "2026-3-1" })).toEqual(["to: must be a day, YYYY-MM-DD"]);
    expect(await refusal({ from: "2026-03-02", to: "2026-03-01" })).toEqual(["to: must not be before from"]);
    expect(await refusal({ granularity: "year" })).toEqual(["granularity: must be one of day, week, month"]);
    expect(await refusal({ groupBy: ["currency"] })).toEqual(["groupBy: must be among payment_method, provider_account"]);
  });

  it("refuses more than the cap of periods × groups, naming to", async () => {
    const lastDay = new Date(Date.UTC(2026, 0, MAX_SUMMARY_ROWS)).toISOString().slice(0, 10);
    const dayAfter = new Date(Date.UTC(2026, 0, MAX_SUMMARY_ROWS + 1)).toISOString().slice(0, 10);
    expect((await summary({ from: "2026-01-01", to: lastDay })).periods).toHaveLength(MAX_SUMMARY_ROWS);
    expect((await refusal({ from: "2026-01-01", to: dayAfter }))[0]).toMatch(/^to: /);
    // Two groups halve the days one answer may hold.
    await seed(paid("2026-01-01T10:00", 1, { paymentMethod: "card" }), paid("2026-01-01T10:00", 1, { paymentMethod: "gcash" }));
    expect((await refusal({ from: "2026-01-01", to: lastDay, groupBy: ["payment_method"] }))[0]).toMatch(/^to: /);
  });
});
