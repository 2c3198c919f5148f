import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PaymentIntentSchema, PaymentIntentStatus, PaymentMethod, type PaymentIntent } from "@bayad/proto";
import { defineStateMachine, type Environment } from "@bayad/kit";
import type { OnlineBankingBankCode, RedirectIntentMethod } from "@bayad/provider";
import type { ProviderAttempt } from "../routing/failover.js";
import { providerNameOf } from "../checkouts/checkout.js";

export type PaymentIntentState =
  | "requires_action"
  | "pending"
  | "processing"
  | "succeeded"
  | "failed"
  | "cancelled"
  | "awaiting_next_action"
  | "expired";

type PaymentIntentAction = "confirm" | "decline" | "process" | "succeed" | "fail" | "cancel" | "expire";

/**
 * A payment intent's lifecycle. A card intent is created `requires_action`; confirming it hands it
 * to the provider (`processing`), unless the provider declines at once (`failed`); the provider's
 * report then makes it `succeeded` or `failed`. A QR Ph intent is created `awaiting_next_action`
 * with its code ready; the payer's payment makes it `succeeded` or `failed`, and an unpaid code
 * `expired` at its expiresAt. An e-wallet or online-banking intent is made at the provider at
 * once and created `awaiting_next_action` (public: `requires_action`) with the page the payer is
 * redirected to; the payer pays there (`processing`, PayMongo's own status while the wallet or
 * bank settles), then `succeeded` or `failed`; the provider may also report the outcome straight
 * from `awaiting_next_action`. It is never confirmed: the payer confirms on the page. An intent
 * not yet handed to the provider, or whose payer has not acted, can be cancelled. `pending`
 * (accepted by a provider but not yet processing) is never reported by the sandbox.
 */
export const paymentIntentStates = defineStateMachine<PaymentIntentState, PaymentIntentAction>(
  "payment intent",
  {
    confirm: { from: ["requires_action"], to: "processing" },
    decline: { from: ["requires_action"], to: "failed" },
    process: { from: ["awaiting_next_action"], to: "processing" },
    succeed: { from: ["processing", "awaiting_next_action"], to: "succeeded" },
    fail: { from: ["processing", "awaiting_next_action"], to: "failed" },
    cancel: { from: ["requires_action", "pending", "awaiting_next_action"], to: "cancelled" },
    expire: { from: ["awaiting_next_action"], to: "expired" },
  },
  { confirm: "confirmed", decline: "declined", process: "processing", succeed: "succeeded", fail: "failed", cancel: "cancelled", expire: "expired" },
);

export type PaymentIntentMethod = "card" | "qrph" | RedirectIntentMethod;

/** Whether the intent is paid on the wallet's or bank's page (never confirmed through the API). */
export const paidByRedirect = (record: Pick<PaymentIntentRecord, "paymentMethod">) => record.paymentMethod !== "card" && record.paymentMethod !== "qrph";

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
  /** That account's provider (`paymongo`, `xendit`); absent on intents made before routing (see providerNameOf). */
  provider?: string;
  /** The accounts asked before this one, which made nothing (failover), oldest first. */
  providerAttempts?: ProviderAttempt[];
  /** The provider's id of the payment that paid it (PayMongo's `pay_…`), which refunds name. */
  providerPaymentId?: string;
  /** online_banking: the bank. */
  bankCode?: OnlineBankingBankCode;
  /** Redirect methods: where the payer comes back to after the wallet's or bank's page. */
  returnUrl?: string;
  /** Redirect methods: the page the payer pays on (a path for the sandbox's, which the gateway serves). */
  redirectUrl?: string;
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
  /** QR Ph: proves that an image request came from qrCodeImageUrl; sandbox redirect intents: that a page request came from redirectUrl. */
  pageToken?: string;
  expirySeconds?: number;
  /** QR Ph: when an unpaid code expires by itself (createdAt + expirySeconds). */
  expiresAt?: Date;
  /** Once succeeded: what the provider kept, in centavos (tax on the fee included); absent: not reported. */
  feeMinor?: number;
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

export const protoMethod: Record<PaymentIntentMethod, PaymentMethod> = {
  card: PaymentMethod.CARD,
  qrph: PaymentMethod.QRPH,
  gcash: PaymentMethod.GCASH,
  maya: PaymentMethod.MAYA,
  grabpay: PaymentMethod.GRABPAY,
  shopeepay: PaymentMethod.SHOPEEPAY,
  online_banking: PaymentMethod.ONLINE_BANKING,
};

/** A redirect method named in a request (proto enum) in Bayad's name; undefined for card, QR Ph or unspecified. */
export function redirectMethodOf(method: PaymentMethod): RedirectIntentMethod | undefined {
  const found = Object.entries(protoMethod).find(([, value]) => value === method)?.[0];
  return found === undefined || found === "card" || found === "qrph" ? undefined : (found as RedirectIntentMethod);
}

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
    bankCode: record.bankCode ?? "",
    returnUrl: record.returnUrl ?? "",
    // The page is where to go only while the payer has yet to act on it.
    ...(record.status === "awaiting_next_action" && record.redirectUrl ? { nextAction: { type: "redirect", url: record.redirectUrl } } : {}),
    providerAccountId: record.providerAccountId ?? "",
    provider: providerNameOf(record),
    ...(record.feeMinor === undefined ? {} : { fee: { amountMinor: BigInt(record.feeMinor), currency: record.currency } }),
  });
}
