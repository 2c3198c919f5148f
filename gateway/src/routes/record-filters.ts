import { AppError } from "@bayad/kit";
import type { operations } from "../gen/openapi.js";
import { dateTimeFilter } from "./date-time.js";

/** The records filters of a validated query: listPaymentRecords' and exportPaymentRecords' alike. */
export type RecordFilterQuery = NonNullable<operations["exportPaymentRecords"]["parameters"]["query"]>;

/**
 * The filters as the records service takes them, the same in ListPaymentRecordsRequest and
 * ExportPaymentRecordsRequest (empty text: no filter). The document has checked each value
 * alone; what only the pair can say (amountMin ≤ amountMax) is checked here, before any rpc.
 */
export function recordFilters(query: RecordFilterQuery) {
  if (query.amountMin !== undefined && query.amountMax !== undefined && query.amountMin > query.amountMax) {
    throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: ["amountMin: must not exceed amountMax"] });
  }
  const metadata = query.metadata === undefined ? undefined : metadataPair(query.metadata);
  return {
    type: query.type ?? "",
    status: query.status ?? "",
    referenceId: query.referenceId ?? "",
    relatedResourceId: query.relatedResourceId ?? "",
    createdAfter: dateTimeFilter(query.createdAfter, "createdAfter"),
    createdBefore: dateTimeFilter(query.createdBefore, "createdBefore"),
    customerId: query.customerId ?? "",
    metadataKey: metadata?.key ?? "",
    metadataValue: metadata?.value ?? "",
    amountMinMinor: query.amountMin === undefined ? undefined : BigInt(query.amountMin),
    amountMaxMinor: query.amountMax === undefined ? undefined : BigInt(query.amountMax),
    paymentMethod: query.paymentMethod ?? "",
    providerAccountId: query.providerAccountId ?? "",
  };
}

/** `key=value`, split at the first "=" so a value may hold "=" itself (the pattern ensures one is there). */
export function metadataPair(text: string): { key: string; value: string } {
  const equals = text.indexOf("=");
  return { key: text.slice(0, equals), value: text.slice(equals + 1) };
}
