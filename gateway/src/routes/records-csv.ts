import { timestampMs } from "@bufbuild/protobuf/wkt";
import { isoTime } from "@bayad/kit";
import type { PaymentRecord } from "@bayad/proto";
import { required } from "@bayad/public-resources";

/**
 * The export's columns, in their documented, stable order (docs/api/records.md, "Export (CSV
 * columns)"): a spreadsheet or a script may rely on the positions, so add new ones at the end.
 */
export const recordCsvColumns = [
  "id",
  "type",
  "status",
  "createdAt",
  "amountMinor",
  "feeMinor",
  "netMinor",
  "currency",
  "paymentMethod",
  "provider",
  "providerAccountId",
  "referenceId",
  "relatedResourceId",
  "customerId",
  "environment",
  "metadata",
] as const;

const plainInteger = /^-?[0-9]+$/;
/** What a spreadsheet reads as the start of a formula (OWASP's list for CSV injection). */
const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF, its quotes
 * doubled. Text a spreadsheet would run as a formula gets a leading apostrophe; integers
 * ("-1500", a refund's amount) are numbers to it, not formulas, and stay as they are.
 */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const safe = formulaStart.test(value) && !plainInteger.test(value) ? `'${value}` : value;
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(values: ReadonlyArray<string | null | undefined>): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

export const recordCsvHeader = csvLine(recordCsvColumns);

/** A record as its CSV line, in recordCsvColumns' order; metadata as compact JSON with sorted keys. */
export function recordCsvLine(record: PaymentRecord): string {
  return csvLine([
    record.id,
    record.type,
    record.status,
    isoTime(timestampMs(required(record.createdAt, "record's createdAt"))),
    record.amountMinor,
    record.feeMinor,
    record.netMinor,
    record.currency,
    record.paymentMethod,
    record.provider,
    record.providerAccountId,
    record.referenceId,
    record.relatedResourceId,
    record.customerId,
    record.environment,
    JSON.stringify(sortedMetadata(record.metadata)),
  ]);
}

/** The same metadata always prints the same, whatever order the map arrived in. */
function sortedMetadata(metadata: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
