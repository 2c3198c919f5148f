import type { ServiceImpl } from "@connectrpc/connect";
import type { ExportPaymentRecordsRequest, RecordsService } from "@bayad/proto";
import { callerOf, createCursorCodec } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createdBound } from "./records/created-bound.js";
import { exportPaymentRecords } from "./records/export-records.js";
import { listPaymentRecords, type ListRecordsDeps } from "./records/list-records.js";
import { paymentRecordToProto } from "./records/payment-record.js";
import { createPaymentRecordsRepository } from "./records/payment-records-repository.js";
import type { RecordFiltersInput } from "./records/record-filters.js";
import { getPaymentsSummary, paymentTotalsToProto } from "./totals/summary.js";
import { rebuildPaymentTotals } from "./totals/rebuild.js";
import { createPaymentTotalsRepository } from "./totals/totals-repository.js";

export interface RecordsServiceDeps {
  store: Store;
  /** Signs listing cursors (RecordsConfig.cursorSecret). */
  cursorSecret: string;
}

/** The filters of a listing or export request, as the rpc carries them. */
function filtersOf(request: Omit<ExportPaymentRecordsRequest, "$typeName">): RecordFiltersInput {
  return {
    type: request.type,
    status: request.status,
    referenceId: request.referenceId,
    relatedResourceId: request.relatedResourceId,
    customerId: request.customerId,
    metadataKey: request.metadataKey,
    metadataValue: request.metadataValue,
    amountMin: request.amountMinMinor,
    amountMax: request.amountMaxMinor,
    paymentMethod: request.paymentMethod,
    providerAccountId: request.providerAccountId,
    createdAfter: request.createdAfter ? createdBound(request.createdAfter) : undefined,
    createdBefore: request.createdBefore ? createdBound(request.createdBefore) : undefined,
  };
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
      const page = await listPaymentRecords(listing, callerOf(context), { ...filtersOf(request), limit: request.limit, cursor: request.cursor });
      return { records: page.records.map(paymentRecordToProto), nextCursor: page.nextCursor ?? "" };
    },
    exportPaymentRecords(request, context) {
      // Not a generator itself: the filters are refused when the call starts, inside the error
      // boundary, before any message. The batches come from an async generator that reads the
      // next page only when asked; connect-node asks for the next message only once the last
      // write has drained (universalResponseToNodeResponse awaits each write), so a slow reader
      // slows the walk instead of filling memory, and an aborted call ends it.
      const batches = exportPaymentRecords(listing, callerOf(context), filtersOf(request), context.signal);
      return (async function* () {
        for await (const batch of batches) yield { records: batch.map(paymentRecordToProto) };
      })();
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
