import type { ListRecordsInput } from "../records/list-records.js";
import type { ProjectedRecord } from "../records/payment-record.js";
import type { RecordFiltersInput } from "../records/record-filters.js";

/** Every filter of a listing or export left out (proto3's empty text). */
export const noFilters: RecordFiltersInput = {
  type: "",
  status: "",
  referenceId: "",
  relatedResourceId: "",
  customerId: "",
  metadataKey: "",
  metadataValue: "",
  paymentMethod: "",
  providerAccountId: "",
};

/** A listing's request with no filter, the default page size and no cursor. */
export const everything: ListRecordsInput = { ...noFilters, limit: 0, cursor: "" };

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
