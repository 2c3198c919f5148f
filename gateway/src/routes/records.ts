import type { Client } from "@connectrpc/connect";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { isoTime } from "@bayad/kit";
import type { PaymentRecord, RecordsService } from "@bayad/proto";
import type { OperationHandlers } from "./operation.js";
import { required } from "@bayad/public-resources";
import { recordFilters } from "./record-filters.js";

export function recordToJson(record: PaymentRecord) {
  return {
    type: record.type,
    id: record.id,
    projectId: record.projectId,
    environment: record.environment,
    referenceId: record.referenceId ?? null,
    relatedResourceId: record.relatedResourceId ?? null,
    amountMinor: record.amountMinor ?? null,
    currency: record.currency ?? null,
    status: record.status ?? null,
    provider: record.provider ?? null,
    providerAccountId: record.providerAccountId ?? null,
    paymentMethod: record.paymentMethod ?? null,
    customerId: record.customerId ?? null,
    feeMinor: record.feeMinor ?? null,
    netMinor: record.netMinor ?? null,
    metadata: { ...record.metadata },
    createdAt: isoTime(timestampMs(required(record.createdAt, "record's createdAt"))),
  };
}

/** The payment records feed ⇄ RecordsService (the export streams: records-export.ts). */
export function recordsRoutes(records: Client<typeof RecordsService>): OperationHandlers {
  return {
    async listPaymentRecords({ query }, { call }) {
      const response = await records.listPaymentRecords(
        {
          ...recordFilters(query),
          // 0 when absent: the records service owns the default page size.
          limit: query.limit ?? 0,
          cursor: query.cursor ?? "",
        },
        call,
      );
      return {
        status: 200,
        data: {
          records: response.records.map(recordToJson),
          ...(response.nextCursor ? { nextCursor: response.nextCursor } : {}),
        },
      };
    },
  };
}
