import type { ProjectedRecord } from "../records/payment-record.js";

/** A projected record with test defaults: a paid PHP checkout of prj_records in test mode. */
export function recordOf(overrides: Partial<ProjectedRecord> & Pick<ProjectedRecord, "_id">): ProjectedRecord {
  return {
    type: "checkout",
    projectId: "prj_records",
    environment: "test",
    referenceId: `order-${overrides._id}`,
    relatedResourceId: null,
    amountMinor: "10000",
    currency: "PHP",
    status: "paid",
    createdAt: new Date("2026-01-01T00:00:00.000Z"),
    aggregateVersion: 1,
    ...overrides,
  };
}
