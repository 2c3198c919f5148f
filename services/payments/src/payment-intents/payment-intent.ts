import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PaymentIntentSchema, PaymentIntentStatus, PaymentMethod, type PaymentIntent } from "@bayad/proto";
import { defineStateMachine, type Environment } from "@bayad/kit";

export type PaymentIntentState =
  | "requires_action"
  | "pending"
  | "processing"
  | "succeeded"
  | "failed"
  | "cancelled"
  | "awaiting_next_action"
  | "expired";

type PaymentIntentAction = "confirm" | "decline" | "succeed" | "fail" | "cancel" | "expire";

/**
 * A payment intent's lifecycle. A card intent is created `requires_action`; confirming it hands it
 * to the provider (`processing`), unless the provider declines at once (`failed`); the provider's
 * report then makes it `succeeded` or `failed`. A QR Ph intent is created `awaiting_next_action`
 * with its code ready; the payer's payment makes it `succeeded` or `failed`, and an unpaid code
 * `expired` at its expiresAt. An intent not yet handed to the provider can be cancelled.
 * `pending` (accepted by a provider but not yet processing) is never reported by the sandbox.
 */
export const paymentIntentStates = defineStateMachine<PaymentIntentState, PaymentIntentAction>(
  "payment intent",
  {
    confirm: { from: ["requires_action"], to: "processing" },
    decline: { from: ["requires_action"], to: "failed" },
    succeed: { from: ["processing", "awaiting_next_action"], to: "succeeded" },
    fail: { from: ["processing", "awaiting_next_action"], to: "failed" },
    cancel: { from: ["requires_action", "pending", "awaiting_next_action"], to: "cancelled" },
    expire: { from: ["awaiting_next_action"], to: "expired" },
  },
  { confirm: "confirmed", decline: "declined", succeed: "succeeded", fail: "failed", cancel: "cancelled", expire: "expired" },
);

export type PaymentIntentMethod = "card" | "qrph";

/** A payment intent as stored in the `payment_intents` collection. */
export interface PaymentIntentRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  referenceId: string;
  status: PaymentIntentState;
  paymentMethod: PaymentIntentMethod;
  amountMinor: number;
  currency: "PHP";
  description?: string;
  providerReference?: string;
  /** The project's provider account the intent was made with; absent: the environment's default (the sandbox). */
  providerAccountId?: string;
  /** The provider's id of the payment that paid it (PayMongo's `pay_…`), which refunds name. */
  providerPaymentId?: string;
  /** The method the payer used, as the provider named it (`gcash`, `qrph`…): the provider's refund rules depend on it. */
  paymentMethodUsed?: string;
  /** When the provider took the payment: refund windows run from it. */
  paidAt?: Date;
  /** QR Ph: the EMVCo payload the code encodes. */
  qrPayload?: string;
  /** QR Ph: where the code's image is (a path for the sandbox, whose images the gateway serves). */
  qrCodeImageUrl?: string;
  /** QR Ph: the provider's own image of the code (base64 PNG; PayMongo's), served at qrCodeImageUrl. */
  qrImagePng?: string;
  /** QR Ph: proves that an image request came from qrCodeImageUrl. */
  pageToken?: string;
  expirySeconds?: number;
  /** QR Ph: when an unpaid code expires by itself (createdAt + expirySeconds). */
  expiresAt?: Date;
  /** What is left to refund once succeeded. */
  refundableMinor?: number;
  /**
   * A card intent's confirmation under way: written (guarded by the version) before the provider
   * is asked, so of racing confirms only one reaches it, and a cancel cannot land meanwhile.
   * `providerKey` keys the provider call, also when a later request takes over a stale claim.
   */
  confirmation?: { providerKey: string; claimedAt: Date };
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

const protoStatus: Record<PaymentIntentState, PaymentIntentStatus> = {
  requires_action: PaymentIntentStatus.REQUIRES_ACTION,
  pending: PaymentIntentStatus.PENDING,
  processing: PaymentIntentStatus.PROCESSING,
  succeeded: PaymentIntentStatus.SUCCEEDED,
  failed: PaymentIntentStatus.FAILED,
  cancelled: PaymentIntentStatus.CANCELLED,
  awaiting_next_action: PaymentIntentStatus.AWAITING_NEXT_ACTION,
  expired: PaymentIntentStatus.EXPIRED,
};

const protoMethod: Record<PaymentIntentMethod, PaymentMethod> = {
  card: PaymentMethod.CARD,
  qrph: PaymentMethod.QRPH,
};

export function paymentIntentToProto(record: PaymentIntentRecord): PaymentIntent {
  return create(PaymentIntentSchema, {
    paymentIntentId: record._id,
    referenceId: record.referenceId,
    status: protoStatus[record.status],
    amount: { amountMinor: BigInt(record.amountMinor), currency: record.currency },
    aggregateVersion: record.aggregateVersion,
    paymentMethod: protoMethod[record.paymentMethod],
    qrCodeImageUrl: record.qrCodeImageUrl ?? "",
    expirySeconds: record.expirySeconds ?? 0,
    description: record.description ?? "",
    createdAt: timestampFromDate(record.createdAt),
    ...(record.expiresAt ? { expiresAt: timestampFromDate(record.expiresAt) } : {}),
  });
}
