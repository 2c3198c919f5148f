import type { Client } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { PaymentRecord, RecordsService } from "@bayad/proto";
import { AppError } from "@bayad/kit";
import type { OperationHandlers } from "./operation.js";
import { required } from "@bayad/public-resources";
import { timestampOfDateTime } from "./date-time.js";

function recordToJson(record: PaymentRecord) {
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
    createdAt: timestampDate(required(record.createdAt, "record's createdAt")).toISOString(),
  };
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
/** A date-time filter, to the nanosecond; the validator has checked its form already. */
function timestamp(value: unknown, parameter: string) {
  if (typeof value !== "string") return undefined;
  const parsed = timestampOfDateTime(value);
  if (!parsed) throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: [`${parameter}: must be a date-time`] });
  return parsed;
}

/** The payment records feed ⇄ RecordsService. */
export function recordsRoutes(records: Client<typeof RecordsService>): OperationHandlers {
  return {
    async listPaymentRecords({ query }, { call }) {
      const response = await records.listPaymentRecords(
        {
          type: text(query.type),
          status: text(query.status),
          referenceId: text(query.referenceId),
          relatedResourceId: text(query.relatedResourceId),
          createdAfter: timestamp(query.createdAfter, "createdAfter"),
          createdBefore: timestamp(query.createdBefore, "createdBefore"),
          // 0 when absent: the records service owns the default page size.
          limit: typeof query.limit === "number" ? query.limit : 0,
          cursor: text(query.cursor),
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
