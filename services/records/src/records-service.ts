import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { RecordsService } from "@bayad/proto";
import { callerOf, createCursorCodec } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createdBound } from "./records/created-bound.js";
import { listPaymentRecords, type ListRecordsDeps } from "./records/list-records.js";
import { paymentRecordToProto } from "./records/payment-record.js";
import { createPaymentRecordsRepository } from "./records/payment-records-repository.js";
import { getPaymentsSummary, paymentTotalsToProto } from "./totals/summary.js";
import { rebuildPaymentTotals } from "./totals/rebuild.js";
import { createPaymentTotalsRepository } from "./totals/totals-repository.js";

export interface RecordsServiceDeps {
  store: Store;
  /** Signs listing cursors (RecordsConfig.cursorSecret). */
  cursorSecret: string;
}

/**
 * The RecordsService rpc handlers: read the caller, list or sum, map to the response. Creating
 * the repositories declares their collections, so the store's ensureIndexes builds their indexes.
 */
export function createRecordsService(deps: RecordsServiceDeps): ServiceImpl<typeof RecordsService> {
  const listing: ListRecordsDeps = {
    repository: createPaymentRecordsRepository(deps.store),
    cursors: createCursorCodec(deps.cursorSecret, "records-cursor"),
  };
  const totals = createPaymentTotalsRepository(deps.store);
  return {
    async listPaymentRecords(request, context) {
      const page = await listPaymentRecords(listing, callerOf(context), {
        type: request.type,
        status: request.status,
        referenceId: request.referenceId,
        relatedResourceId: request.relatedResourceId,
        createdAfter: request.createdAfter ? createdBound(request.createdAfter) : undefined,
        createdBefore: request.createdBefore ? createdBound(request.createdBefore) : undefined,
        limit: request.limit,
        cursor: request.cursor,
      });
      return { records: page.records.map(paymentRecordToProto), nextCursor: page.nextCursor ?? "" };
    },
    // Being built (issue 45): the export.
    exportPaymentRecords() {
      throw new ConnectError("not implemented yet", Code.Unimplemented);
    },
    async getPaymentsSummary(request, context) {
      const summary = await getPaymentsSummary(totals, callerOf(context), {
        from: request.from,
        to: request.to,
        granularity: request.granularity,
        groupBy: request.groupBy,
      });
      return {
        periods: summary.periods.map((row) => ({
          start: row.start,
          end: row.end,
          // Grouped by it and unknown (no method, the sandbox): set, as empty text.
          ...(row.paymentMethod !== undefined ? { paymentMethod: row.paymentMethod ?? "" } : {}),
          ...(row.providerAccountId !== undefined ? { providerAccountId: row.providerAccountId ?? "" } : {}),
          totals: paymentTotalsToProto(row.totals),
        })),
        total: paymentTotalsToProto(summary.total),
      };
    },
    /** Operators only (the admin API names the project): no caller context. */
    async rebuildPaymentTotals(request) {
      const { recordsRead, totalsWritten } = await rebuildPaymentTotals(deps.store, { projectId: request.projectId, environment: request.environment });
      return { recordsRead: BigInt(recordsRead), totalsWritten: BigInt(totalsWritten) };
    },
  };
}
