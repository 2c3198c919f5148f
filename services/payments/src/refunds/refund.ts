import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { RefundSchema, RefundStatus, type Refund } from "@bayad/proto";
import { defineStateMachine, type Environment } from "@bayad/kit";

export type RefundState = "pending" | "succeeded" | "failed";

/** A refund starts pending at the provider, which reports it succeeded or failed. */
export const refundStates = defineStateMachine<RefundState, "succeed" | "fail">(
  "refund",
  {
    succeed: { from: ["pending"], to: "succeeded" },
    fail: { from: ["pending"], to: "failed" },
  },
  { succeed: "succeeded", fail: "failed" },
);

/** A refund as stored in the `refunds` collection. */
export interface RefundRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  /** The paid checkout (chk_…) or succeeded payment intent (pi_…) refunded. */
  paymentId: string;
  status: RefundState;
  amountMinor: number;
  currency: "PHP";
  reason: string;
  providerReference?: string;
  /** The refunded payment's provider account (absent: the sandbox). */
  providerAccountId?: string;
  /** The provider's id of the refunded payment (PayMongo's `pay_…`). */
  providerPaymentId?: string;
  /** The refunded payment's provider (`paymongo`, `xendit`, `sandbox`), copied when made; absent on refunds made before. */
  provider?: string;
  /** The refunded payment's method in Bayad's names, copied when made; absent when it was not known. */
  paymentMethod?: string;
  /** What the provider charged for the refund, once it reported it (Xendit's refund_fee_amount); absent: not reported. */
  feeMinor?: number;
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

const protoStatus: Record<RefundState, RefundStatus> = {
  pending: RefundStatus.PENDING,
  succeeded: RefundStatus.SUCCEEDED,
  failed: RefundStatus.FAILED,
};

export function refundToProto(record: RefundRecord): Refund {
  return create(RefundSchema, {
    refundId: record._id,
    paymentId: record.paymentId,
    status: protoStatus[record.status],
    amount: { amountMinor: BigInt(record.amountMinor), currency: record.currency },
    reason: record.reason,
    aggregateVersion: record.aggregateVersion,
    createdAt: timestampFromDate(record.createdAt),
    providerAccountId: record.providerAccountId ?? "",
    provider: record.provider ?? "",
    paymentMethod: record.paymentMethod ?? "",
    ...(record.feeMinor === undefined ? {} : { fee: { amountMinor: BigInt(record.feeMinor), currency: record.currency } }),
  });
}
