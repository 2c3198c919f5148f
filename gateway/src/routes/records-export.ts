import { Readable } from "node:stream";
import type { Client } from "@connectrpc/connect";
import type { ExportPaymentRecordsResponse, RecordsService } from "@bayad/proto";
import { recordFilters } from "./record-filters.js";
import { recordCsvHeader, recordCsvLine } from "./records-csv.js";
import type { StreamedOperationHandlers } from "./streamed-operation.js";

const philippineOffsetMs = 8 * 3_600_000;

/** GET /api/v1/payments/records/export ⇄ RecordsService.ExportPaymentRecords, as CSV. */
export function recordsExportRoutes(records: Client<typeof RecordsService>, now: () => Date = () => new Date()): StreamedOperationHandlers {
  return {
    async exportPaymentRecords({ query }, { caller, call }) {
      const batches = records.exportPaymentRecords(recordFilters(query), call)[Symbol.asyncIterator]();
      // The first batch before any byte: a service that refuses the export answers an envelope.
      const first = await batches.next();
      return {
        contentType: "text/csv; charset=utf-8",
        headers: {
          "Content-Disposition": `attachment; filename="payment-records-${caller.environment}-${philippineDay(now())}.csv"`,
          "Cache-Control": "no-store",
        },
        // Readable.from asks the generator for a chunk only when the response has room for one,
        // so one batch at a time is in memory however many records match.
        body: Readable.from(csvChunks(first, batches), { objectMode: false }),
      };
    },
  };
}

/** The header, then one chunk per non-empty batch. Returning early (client gone) ends the rpc's iteration. */
async function* csvChunks(
  first: IteratorResult<ExportPaymentRecordsResponse>,
  rest: AsyncIterator<ExportPaymentRecordsResponse>,
): AsyncGenerator<string> {
  try {
    yield recordCsvHeader;
    let next = first;
    while (!next.done) {
      if (next.value.records.length > 0) yield next.value.records.map(recordCsvLine).join("");
      next = await rest.next();
    }
  } finally {
    await rest.return?.();
  }
}

/** The export's date in its file name: the Philippine calendar day (UTC+8), as the totals count days. */
export function philippineDay(at: Date): string {
  return new Date(at.getTime() + philippineOffsetMs).toISOString().slice(0, 10).replaceAll("-", "");
}
