import type { Client } from "@connectrpc/connect";
import { AppError } from "@bayad/kit";
import type { PaymentTotals, RecordsService } from "@bayad/proto";
import type { OperationHandlers } from "./operation.js";

export interface ReportsDeps {
  records: Client<typeof RecordsService>;
  /** Throws 404 RESOURCE_NOT_FOUND naming the project when there is none. */
  requireProject(projectId: string): Promise<unknown>;
}

/** The summary of a caller's payments, and the operators' rebuild of the totals it reads. */
export function reportsRoutes(deps: ReportsDeps): OperationHandlers {
  return {
    async getPaymentsSummary({ query }, { call }) {
      // YYYY-MM-DD compares as text in calendar order.
      if (query.to < query.from) {
        throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: ["to: must not be before from"] });
      }
      const groupBy = groupsOf(query.groupBy);
      const response = await deps.records.getPaymentsSummary(
        { from: query.from, to: query.to, granularity: query.granularity ?? "day", groupBy },
        call,
      );
      return {
        status: 200,
        data: {
          periods: response.periods.map((period) => ({
            start: period.start,
            end: period.end,
            // Present exactly when grouped by it; the service's empty text is "none known".
            ...(groupBy.includes("payment_method") ? { paymentMethod: period.paymentMethod || null } : {}),
            ...(groupBy.includes("provider_account") ? { providerAccountId: period.providerAccountId || null } : {}),
            totals: totalsToJson(period.totals),
          })),
          total: totalsToJson(response.total),
        },
      };
    },

    async rebuildPaymentTotals({ params, body }, { call }) {
      await deps.requireProject(params.projectId);
      const response = await deps.records.rebuildPaymentTotals({ projectId: params.projectId, environment: body.environment ?? "" }, call);
      return { status: 200, data: { recordsRead: Number(response.recordsRead), totalsWritten: Number(response.totalsWritten) } };
    },
  };
}

/** `groupBy` comma-separated, repeated, or both, each group once, in the order first named. */
export function groupsOf(groupBy: string | string[] | undefined): string[] {
  const named = (Array.isArray(groupBy) ? groupBy : groupBy === undefined ? [] : [groupBy]).flatMap((text) => text.split(","));
  return [...new Set(named)];
}

function totalsToJson(totals: PaymentTotals | undefined) {
  return {
    paidCount: Number(totals?.paidCount ?? 0n),
    paidMinor: totals?.paidMinor || "0",
    failedCount: Number(totals?.failedCount ?? 0n),
    failedMinor: totals?.failedMinor || "0",
    refundedCount: Number(totals?.refundedCount ?? 0n),
    refundedMinor: totals?.refundedMinor || "0",
    feeMinor: totals?.feeMinor || "0",
    netMinor: totals?.netMinor || "0",
    unreportedFeeCount: Number(totals?.unreportedFeeCount ?? 0n),
  };
}
