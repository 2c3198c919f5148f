import { localDay, pesosText } from "../../format";
import type { Environment } from "../../api/client";
import type { PaymentRecord } from "./records";

export const csvHeader = [
  "type",
  "id",
  "referenceId",
  "relatedResourceId",
  "amountMinor",
  "amountPesos",
  "currency",
  "status",
  "createdAt",
  "environment",
  "projectId",
] as const;

/**
 * One CSV cell (RFC 4180). Text starting with = + - @ (or a tab or carriage return) is
 * prefixed with ' so a spreadsheet does not run it as a formula; the numeric amount columns
 * are left alone (their minus sign is a number's).
 */
export function csvCell(value: string | null | undefined, numeric = false): string {
  let text = value ?? "";
  if (!numeric && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function recordsCsv(records: PaymentRecord[]): string {
  const lines = [csvHeader.join(",")];
  for (const record of records) {
    lines.push(
      [
        csvCell(record.type),
        csvCell(record.id),
        csvCell(record.referenceId),
        csvCell(record.relatedResourceId),
        csvCell(record.amountMinor, true),
        csvCell(pesosText(record.amountMinor), true),
        csvCell(record.currency),
        csvCell(record.status),
        csvCell(record.createdAt),
        csvCell(record.environment),
        csvCell(record.projectId),
      ].join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

export function csvFileName(environment: Environment, now = new Date()): string {
  return `bayad-records-${environment}-${localDay(now)}.csv`;
}

/** Hands `text` to the browser as a download, built in memory (a Blob), never sent anywhere. */
export function downloadText(text: string, fileName: string, type = "text/csv;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
