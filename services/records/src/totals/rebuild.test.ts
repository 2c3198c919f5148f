import { beforeEach, describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createTestStore } from "@bayad/store/testing";
import type { ProjectedRecord } from "../records/payment-record.js";
import { projectInTransaction } from "../records/projection.js";
import { recordOf } from "../test-support/records.js";
import { rebuildPaymentTotals } from "./rebuild.js";
import { paymentTotalsCollection, type PaymentTotalsDoc } from "./totals-collection.js";

const day = (n: number, hour = 12) => new Date(Date.UTC(2026, 2, n, hour));

describe("rebuildPaymentTotals", () => {
  let store: Store;
  const totalsDocs = () => store.collection<PaymentTotalsDoc>(paymentTotalsCollection);
  const sorted = async () => (await totalsDocs().find({})).sort((a, b) => a._id.localeCompare(b._id));
  const project = async (...records: ProjectedRecord[]) => {
    for (const record of records) await projectInTransaction(store, () => new Date(), record);
  };

  beforeEach(async () => {
    store = createTestStore();
    totalsDocs();
    await store.ensureIndexes();
    // More records than one page of the walk, over days, methods, accounts and both environments.
    const methods = [null, "card", "gcash", "qrph"];
    for (let n = 0; n < 1200; n++) {
      const paid = recordOf({
        _id: `pi_${n}`,
        type: "payment_intent",
        environment: n % 5 === 0 ? "live" : "test",
        status: "pending",
        amount: 100 + n,
        amountMinor: String(100 + n),
        createdAt: day(1 + (n % 20), n % 24),
      });
      await project(paid);
      const later = { ...paid, aggregateVersion: 2, status: n % 7 === 0 ? "failed" : "succeeded", paymentMethod: methods[n % 4]!, providerAccountId: n % 3 === 0 ? null : "pa_1", fee: n % 2 === 0 ? 3 : null };
      await project(later);
      if (n % 10 === 0) await project(recordOf({ _id: `ref_${n}`, type: "refund", status: "succeeded", amount: -50, amountMinor: "-50", fee: 1, createdAt: day(2 + (n % 20)), paymentMethod: later.paymentMethod }));
    }
    await project(recordOf({ _id: "chk_other", projectId: "prj_other", status: "paid", amount: 999, createdAt: day(3) }));
  });

  it("writes exactly what the projection kept, and counts what it read and wrote", async () => {
    const incremental = await sorted();
    const result = await rebuildPaymentTotals(store, { projectId: "prj_records", environment: "" });
    expect(result.recordsRead).toBe(1200 + 120);
    expect(result.totalsWritten).toBe(incremental.filter((doc) => doc.projectId === "prj_records").length);
    expect(await sorted()).toEqual(incremental);
  });

  it("repairs a corrupted document, a lost one and a stray one, in the environment asked only", async () => {
    const incremental = await sorted();
    const ours = (doc: PaymentTotalsDoc) => doc.projectId === "prj_records" && doc.environment === "test";
    const [first, second] = incremental.filter(ours);
    await totalsDocs().updateOne({ _id: first!._id }, { $inc: { paidMinor: 12345, paidCount: 1 } });
    await totalsDocs().deleteOne({ _id: second!._id });
    const stray = { ...first!, _id: "stray", day: "2025-01-01" };
    await totalsDocs().insertOne(stray);
    const liveDoc = incremental.find((doc) => doc.environment === "live")!;
    await totalsDocs().updateOne({ _id: liveDoc._id }, { $inc: { feeMinor: 7 } });

    await rebuildPaymentTotals(store, { projectId: "prj_records", environment: "test" });
    const repaired = await sorted();
    expect(repaired.filter(ours)).toEqual(incremental.filter(ours));
    // The live environment was not asked for: its corruption stays until it is rebuilt too.
    expect(repaired.find((doc) => doc._id === liveDoc._id)?.feeMinor).toBe(liveDoc.feeMinor + 7);
    await rebuildPaymentTotals(store, { projectId: "prj_records", environment: "live" });
    expect(await sorted()).toEqual(incremental);
  });

  it("refuses a missing project or an unknown environment, writing nothing", async () => {
    const before = await sorted();
    for (const input of [
      { projectId: "", environment: "", field: "projectId" },
      { projectId: "prj_records", environment: "staging", field: "environment" },
    ]) {
      const error = await rebuildPaymentTotals(store, input).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("VALIDATION_FAILED");
      expect((error as AppError).details?.[0]).toMatch(new RegExp(`^${input.field}: `));
    }
    expect(await sorted()).toEqual(before);
  });
});
