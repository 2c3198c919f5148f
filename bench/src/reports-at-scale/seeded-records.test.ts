import { describe, expect, it } from "vitest";
import { addRecord, manilaDay, needle, seededRecords, zeroTotals, type SeededRecord } from "./seeded-records.js";

const first = new Date("2026-11-01T00:00:00Z");
const last = new Date("2026-12-01T00:00:00Z");

describe("seededRecords", () => {
  const records = [...seededRecords("prj_seed", 2_000, first, last, 700)];

  it("seeds every kind the totals tell apart, oldest first, with one needle", () => {
    const kinds = new Set(records.map((record) => `${record.type}:${record.status}`));
    for (const kind of ["checkout:paid", "checkout:failed", "payment_intent:succeeded", "payment_intent:failed", "refund:succeeded", "refund:pending"]) {
      expect(kinds).toContain(kind);
    }
    expect(records.filter((record) => record.metadata?.[needle.key] === needle.value).map((record) => record.referenceId)).toHaveLength(1);
    expect(records[0]?.createdAt).toEqual(first);
    expect(records[records.length - 1]?.createdAt).toEqual(last);
    expect(new Set(records.map((record) => record._id)).size).toBe(records.length);
    // Refunds are negative and name a payment seeded before them.
    const ids = new Set<string>();
    for (const record of records) {
      if (record.type === "refund") {
        expect(record.amount).toBeLessThan(0);
        expect(ids).toContain(record.relatedResourceId);
      } else ids.add(record._id);
    }
  });

  it("indexes each metadata pair as the records service does", () => {
    const needleRecord = records.find((record) => record.metadata?.[needle.key] !== undefined);
    expect(needleRecord?.metadataPairs).toEqual([JSON.stringify([needle.key, needle.value])]);
  });
});

describe("addRecord", () => {
  const record = (fields: Partial<SeededRecord>): SeededRecord => ({ ...[...seededRecords("prj_seed", 1, first, first, -1)][0]!, ...fields });

  it("counts paid, failed and succeeded refunds, sums fees and nets them out; open ones count nowhere", () => {
    const totals = zeroTotals();
    addRecord(totals, record({ type: "checkout", status: "paid", amount: 100_00, fee: 2_50 }));
    addRecord(totals, record({ type: "payment_intent", status: "succeeded", amount: 200_00, fee: null }));
    addRecord(totals, record({ type: "payment_intent", status: "failed", amount: 50_00, fee: null }));
    addRecord(totals, record({ type: "checkout", status: "pending", amount: 70_00, fee: null }));
    addRecord(totals, record({ type: "refund", status: "succeeded", amount: -30_00, fee: 5_00 }));
    addRecord(totals, record({ type: "refund", status: "pending", amount: -10_00, fee: null }));
    expect(totals).toEqual({
      paidCount: 2,
      paidMinor: 300_00,
      failedCount: 1,
      failedMinor: 50_00,
      refundedCount: 1,
      refundedMinor: 30_00,
      feeMinor: 7_50,
      netMinor: 300_00 - 7_50 - 30_00,
      unreportedFeeCount: 1,
    });
  });

  it("dates a record by its Philippine day", () => {
    expect(manilaDay(new Date("2026-11-30T15:59:59.999Z"))).toBe("2026-11-30");
    expect(manilaDay(new Date("2026-11-30T16:00:00.000Z"))).toBe("2026-12-01");
  });
});
