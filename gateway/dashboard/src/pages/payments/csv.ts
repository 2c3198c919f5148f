import { localDay } from "../../format";
import type { Environment } from "../../api/client";

/** The name the download gets when the gateway's Content-Disposition names none. */
export function csvFileName(environment: Environment, now = new Date()): string {
  return `bayad-records-${environment}-${localDay(now)}.csv`;
}

/** The file name of a Content-Disposition header (`attachment; filename="x.csv"`), if it names a plain one. */
export function fileNameOf(disposition: string | null): string | undefined {
  const match = /filename="?([^";/\\]+)"?/i.exec(disposition ?? "");
  return match?.[1]?.trim() || undefined;
}

/** Hands `blob` to the browser as a download of `fileName`; the Blob URL is dropped once the download started. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
