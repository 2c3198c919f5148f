import { expect } from "vitest";
import { AppError, createCursorCodec } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { ListRecordsDeps, ListRecordsInput } from "../records/list-records.js";
import { createPaymentRecordsRepository } from "../records/payment-records-repository.js";
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

/** A listing's dependencies on `store`, with a fixed cursor secret. */
export function listingDeps(store: Store): ListRecordsDeps {
  return { repository: createPaymentRecordsRepository(store), cursors: createCursorCodec("k".repeat(43), "records-cursor") };
}

/** The VALIDATION_FAILED a listing or export was refused with; fails the test when it was accepted or failed otherwise. */
export async function validationRefusal(pending: Promise<unknown>): Promise<AppError> {
  const error = await pending.then(
    () => new Error("the listing was accepted"),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw error;
  expect(error.code).toBe("VALIDATION_FAILED");
  return error;
}
