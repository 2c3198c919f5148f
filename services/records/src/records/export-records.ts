import { AppError, type CallerContext } from "@bayad/kit";
import type { PaymentRecordDoc } from "./payment-record.js";
import type { PaymentRecordsRepository } from "./payment-records-repository.js";
import { feedFiltersOf, recordFilterProblems, type RecordFiltersInput } from "./record-filters.js";

/** Records per streamed message: large enough to amortise a message, small enough to hold one. */
export const EXPORT_BATCH_SIZE = 500;

export interface ExportRecordsDeps {
  repository: PaymentRecordsRepository;
}

/**
 * Every record of the caller's matching the filters, newest first by (createdAt, id) as the
 * listing orders them, in batches read page by page by keyset. Validates at once (so a refusal
 * comes before any batch); the batches are read lazily: the next page is read only when the
 * previous batch was taken, so a slow reader holds the walk back instead of letting batches
 * pile up in memory. The walk stops when `signal` aborts (the caller went away).
 */
export function exportPaymentRecords(
  deps: ExportRecordsDeps,
  caller: Pick<CallerContext, "projectId" | "environment">,
  input: RecordFiltersInput,
  signal?: AbortSignal,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<PaymentRecordDoc[]> {
  const problems = recordFilterProblems(input);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });
  return deps.repository.walk(caller, feedFiltersOf(input), batchSize, signal);
}
