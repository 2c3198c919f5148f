import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { RecordsService } from "@bayad/proto";
import { callerOf, createCursorCodec } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createdBound } from "./records/created-bound.js";
import { listPaymentRecords, type ListRecordsDeps } from "./records/list-records.js";
import { paymentRecordToProto } from "./records/payment-record.js";
import { createPaymentRecordsRepository } from "./records/payment-records-repository.js";

export interface RecordsServiceDeps {
  store: Store;
  /** Signs listing cursors (RecordsConfig.cursorSecret). */
  cursorSecret: string;
}

/** The RecordsService rpc handlers: read the caller, list, map to the response. */
export function createRecordsService(deps: RecordsServiceDeps): ServiceImpl<typeof RecordsService> {
  const listing: ListRecordsDeps = {
    repository: createPaymentRecordsRepository(deps.store),
    cursors: createCursorCodec(deps.cursorSecret, "records-cursor"),
  };
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
    // Being built (issue 45): the export, the summary and the rebuild of payment_totals.
    exportPaymentRecords() {
      throw new ConnectError("not implemented yet", Code.Unimplemented);
    },
    getPaymentsSummary() {
      throw new ConnectError("not implemented yet", Code.Unimplemented);
    },
    rebuildPaymentTotals() {
      throw new ConnectError("not implemented yet", Code.Unimplemented);
    },
  };
}
