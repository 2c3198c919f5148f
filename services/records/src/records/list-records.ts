import { AppError, type CallerContext, type CursorCodec, type CursorScope } from "@bayad/kit";
import { isPaymentRecordType, paymentRecordTypes, type PaymentRecordDoc } from "./payment-record.js";
import type { PaymentRecordsRepository } from "./payment-records-repository.js";

export interface ListRecordsDeps {
  repository: PaymentRecordsRepository;
  cursors: CursorCodec;
}

/** A listing request; empty text and a zero limit mean "not given", as proto3 carries them. */
export interface ListRecordsInput {
  type: string;
  status: string;
  /** Only the records with this referenceId. */
  referenceId: string;
  /** Only the records with this relatedResourceId (a payment's refunds, a subscription's invoices, …). */
  relatedResourceId: string;
  /** Inclusive. */
  createdAfter?: Date;
  /** Exclusive. */
  createdBefore?: Date;
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
const MAX_STATUS_LENGTH = 64;
/** The REST contract's bound on a resource id or reference filter. */
const MAX_ID_LENGTH = 255;

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
  const problems: string[] = [];
  if (input.type !== "" && !isPaymentRecordType(input.type)) problems.push(`type: must be one of ${paymentRecordTypes.join(", ")}`);
  if (input.status.length > MAX_STATUS_LENGTH) problems.push(`status: must be at most ${MAX_STATUS_LENGTH} characters`);
  if (input.referenceId.length > MAX_ID_LENGTH) problems.push(`referenceId: must be at most ${MAX_ID_LENGTH} characters`);
  if (input.relatedResourceId.length > MAX_ID_LENGTH) problems.push(`relatedResourceId: must be at most ${MAX_ID_LENGTH} characters`);
  if (input.createdAfter && Number.isNaN(input.createdAfter.getTime())) problems.push("createdAfter: must be a date-time");
  if (input.createdBefore && Number.isNaN(input.createdBefore.getTime())) problems.push("createdBefore: must be a date-time");
  if (!Number.isInteger(input.limit) || input.limit < 0 || input.limit > MAX_LIMIT) problems.push(`limit: must be from 1 to ${MAX_LIMIT}`);
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", undefined, { details: problems });

  const filters = {
    ...(input.type !== "" ? { type: input.type } : {}),
    ...(input.status !== "" ? { status: input.status } : {}),
    ...(input.referenceId !== "" ? { referenceId: input.referenceId } : {}),
    ...(input.relatedResourceId !== "" ? { relatedResourceId: input.relatedResourceId } : {}),
    ...(input.createdAfter ? { createdAfter: input.createdAfter } : {}),
    ...(input.createdBefore ? { createdBefore: input.createdBefore } : {}),
  };
  // A cursor continues exactly one listing: this caller's, with these filters.
  const scope: CursorScope = [
    caller.projectId,
    caller.environment,
    filters.type ?? null,
    filters.status ?? null,
    filters.createdAfter?.getTime() ?? null,
    filters.createdBefore?.getTime() ?? null,
    // Appended only when given, so the cursors of listings without them read as before they existed.
    ...(filters.referenceId !== undefined || filters.relatedResourceId !== undefined
      ? [filters.referenceId ?? null, filters.relatedResourceId ?? null]
      : []),
  ];
  const after = input.cursor !== "" ? deps.cursors.read(input.cursor, scope) : undefined;
  const limit = input.limit === 0 ? DEFAULT_LIMIT : input.limit;

  // One more than asked tells whether another page exists without counting.
  const found = await deps.repository.findPage(caller, { ...filters, ...(after ? { after } : {}), limit: limit + 1 });
  const records = found.slice(0, limit);
  const last = records[records.length - 1];
  if (found.length <= limit || !last) return { records };
  return { records, nextCursor: deps.cursors.issue({ createdAt: last.createdAt, id: last._id }, scope) };
}
