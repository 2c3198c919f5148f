import { AppError, type CallerContext, type CursorCodec } from "@bayad/kit";
import type { PaymentRecordDoc } from "./payment-record.js";
import type { PaymentRecordsRepository } from "./payment-records-repository.js";
import { cursorScopeOf, feedFiltersOf, recordFilterProblems, type RecordFiltersInput } from "./record-filters.js";

export interface ListRecordsDeps {
  repository: PaymentRecordsRepository;
  cursors: CursorCodec;
}

/** A listing request: the filters, and a zero limit meaning "not given", as proto3 carries it. */
export interface ListRecordsInput extends RecordFiltersInput {
  limit: number;
  cursor: string;
}

export interface RecordsPage {
  records: PaymentRecordDoc[];
  /** Absent on the last page. */
  nextCursor?: string;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/**
 * One page of the caller's payment records (its project and environment only), newest first.
 * Pagination is by keyset on (createdAt, id), never by offset: every record that existed when the
 * walk began is returned exactly once, whatever is added or updated meanwhile.
 */
export async function listPaymentRecords(
  deps: ListRecordsDeps,
  caller: Pick<CallerContext, "projectId" | "environment">,
  input: ListRecordsInput,
): Promise<RecordsPage> {
  const problems = recordFilterProblems(input);
  if (!Number.isInteger(input.limit) || input.limit < 0 || input.limit > MAX_LIMIT) problems.push(`limit: must be from 1 to ${MAX_LIMIT}`);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });

  const filters = feedFiltersOf(input);
  // A cursor continues exactly one listing: this caller's, with these filters.
  const scope = cursorScopeOf(caller, filters);
  const after = input.cursor !== "" ? deps.cursors.read(input.cursor, scope) : undefined;
  const limit = input.limit === 0 ? DEFAULT_LIMIT : input.limit;

  // One more than asked tells whether another page exists without counting.
  const found = await deps.repository.findPage(caller, { ...filters, ...(after ? { after } : {}), limit: limit + 1 });
  const records = found.slice(0, limit);
  const last = records[records.length - 1];
  if (found.length <= limit || !last) return { records };
  return { records, nextCursor: deps.cursors.issue({ createdAt: last.createdAt, id: last._id }, scope) };
}
