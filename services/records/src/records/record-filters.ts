import { PaymentMethod } from "@bayad/proto";
import type { CallerContext, CursorScope } from "@bayad/kit";
import { isPaymentRecordType, paymentRecordTypes } from "./payment-record.js";
import type { FeedFilters } from "./payment-records-repository.js";

/**
 * The filters a listing or an export takes, as the rpc carries them: empty text means "not
 * given", as proto3 carries it; the amount bounds are proto's optional int64.
 */
export interface RecordFiltersInput {
  type: string;
  status: string;
  /** Only the records with this referenceId. */
  referenceId: string;
  /** Only the records with this relatedResourceId (a payment's refunds, a subscription's invoices, …). */
  relatedResourceId: string;
  customerId: string;
  /** Both given (the key non-empty) or neither. */
  metadataKey: string;
  metadataValue: string;
  /** Inclusive, in centavos, on the signed amount (refunds negative). */
  amountMin?: bigint;
  amountMax?: bigint;
  /** One of Bayad's method names. */
  paymentMethod: string;
  providerAccountId: string;
  /** Inclusive. */
  createdAfter?: Date;
  /** Exclusive. */
  createdBefore?: Date;
}

/** Bayad's method names: the PaymentMethod enum lower-cased ("card", "qrph", "gcash", …, "online_banking"). */
export const paymentMethodNames: readonly string[] = Object.entries(PaymentMethod)
  .filter(([name, value]) => typeof value === "number" && value !== PaymentMethod.UNSPECIFIED && name !== "")
  .map(([name]) => name.toLowerCase());

const MAX_STATUS_LENGTH = 64;
/** The REST contract's bound on a resource id, reference or other text filter. */
const MAX_TEXT_LENGTH = 255;
/** The REST contract's bounds on a metadata key and value (what a resource's metadata may hold). */
const MAX_METADATA_KEY_LENGTH = 40;
const MAX_METADATA_VALUE_LENGTH = 500;
/** Far beyond any payment (10 trillion pesos) and well inside a double's exact integers. */
const MAX_AMOUNT = 1_000_000_000_000_000n;

/**
 * What is wrong with the filters, one line per problem naming the REST field (empty: fine).
 * The listing and the export refuse the same things the same way.
 */
export function recordFilterProblems(input: RecordFiltersInput): string[] {
  const problems: string[] = [];
  if (input.type !== "" && !isPaymentRecordType(input.type)) problems.push(`type: must be one of ${paymentRecordTypes.join(", ")}`);
  if (input.status.length > MAX_STATUS_LENGTH) problems.push(`status: must be at most ${MAX_STATUS_LENGTH} characters`);
  const texts = { referenceId: input.referenceId, relatedResourceId: input.relatedResourceId, customerId: input.customerId };
  for (const [field, value] of Object.entries(texts)) {
    if (value.length > MAX_TEXT_LENGTH) problems.push(`${field}: must be at most ${MAX_TEXT_LENGTH} characters`);
  }
  if (input.metadataKey === "" && input.metadataValue !== "") problems.push("metadata: must be key=value with a non-empty key");
  else if (input.metadataKey.length > MAX_METADATA_KEY_LENGTH || input.metadataValue.length > MAX_METADATA_VALUE_LENGTH) {
    problems.push(`metadata: the key must be at most ${MAX_METADATA_KEY_LENGTH} characters and the value at most ${MAX_METADATA_VALUE_LENGTH}`);
  }
  const amountProblems = (field: string, bound: bigint | undefined) => {
    if (bound !== undefined && (bound > MAX_AMOUNT || bound < -MAX_AMOUNT)) {
      problems.push(`${field}: must be an integer number of centavos from -${MAX_AMOUNT} to ${MAX_AMOUNT}`);
      return true;
    }
    return false;
  };
  const badMin = amountProblems("amountMin", input.amountMin);
  const badMax = amountProblems("amountMax", input.amountMax);
  if (!badMin && !badMax && input.amountMin !== undefined && input.amountMax !== undefined && input.amountMin > input.amountMax) {
    problems.push("amountMin: must not exceed amountMax");
  }
  if (input.paymentMethod !== "" && !paymentMethodNames.includes(input.paymentMethod)) {
    problems.push(`paymentMethod: must be one of ${paymentMethodNames.join(", ")}`);
  }
  if (input.providerAccountId.length > MAX_TEXT_LENGTH) problems.push(`providerAccountId: must be at most ${MAX_TEXT_LENGTH} characters`);
  if (input.createdAfter && Number.isNaN(input.createdAfter.getTime())) problems.push("createdAfter: must be a date-time");
  if (input.createdBefore && Number.isNaN(input.createdBefore.getTime())) problems.push("createdBefore: must be a date-time");
  return problems;
}

/** The repository's filters for valid input: only those given. */
export function feedFiltersOf(input: RecordFiltersInput): FeedFilters {
  return {
    ...(input.type !== "" ? { type: input.type } : {}),
    ...(input.status !== "" ? { status: input.status } : {}),
    ...(input.referenceId !== "" ? { referenceId: input.referenceId } : {}),
    ...(input.relatedResourceId !== "" ? { relatedResourceId: input.relatedResourceId } : {}),
    ...(input.customerId !== "" ? { customerId: input.customerId } : {}),
    ...(input.metadataKey !== "" ? { metadata: { key: input.metadataKey, value: input.metadataValue } } : {}),
    ...(input.amountMin !== undefined ? { amountMin: Number(input.amountMin) } : {}),
    ...(input.amountMax !== undefined ? { amountMax: Number(input.amountMax) } : {}),
    ...(input.paymentMethod !== "" ? { paymentMethod: input.paymentMethod } : {}),
    ...(input.providerAccountId !== "" ? { providerAccountId: input.providerAccountId } : {}),
    ...(input.createdAfter ? { createdAfter: input.createdAfter } : {}),
    ...(input.createdBefore ? { createdBefore: input.createdBefore } : {}),
  };
}

/**
 * What a listing cursor is bound to: this caller's listing with these filters. The filters added
 * later are appended only when given, so the cursors of listings without them read as before
 * they existed.
 */
export function cursorScopeOf(caller: Pick<CallerContext, "projectId" | "environment">, filters: FeedFilters): CursorScope {
  const search = [
    filters.customerId ?? null,
    filters.metadata?.key ?? null,
    filters.metadata?.value ?? null,
    filters.amountMin ?? null,
    filters.amountMax ?? null,
    filters.paymentMethod ?? null,
    filters.providerAccountId ?? null,
  ];
  return [
    caller.projectId,
    caller.environment,
    filters.type ?? null,
    filters.status ?? null,
    filters.createdAfter?.getTime() ?? null,
    filters.createdBefore?.getTime() ?? null,
    ...(filters.referenceId !== undefined || filters.relatedResourceId !== undefined || search.some((value) => value !== null)
      ? [filters.referenceId ?? null, filters.relatedResourceId ?? null]
      : []),
    ...(search.some((value) => value !== null) ? search : []),
  ];
}
