import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CheckoutSchema, CheckoutStatus, type Checkout } from "@bayad/proto";
import { defineStateMachine, type Environment } from "@bayad/kit";
import { fromStoredMetadata, type StoredMetadata } from "@bayad/kit";
import type { PaymentMethodName } from "@bayad/provider";
import type { ProviderAttempt } from "../routing/failover.js";

/** The provider a payment was made with, as answered: records from before routing have no `provider`. */
export const providerNameOf = (record: { provider?: string; providerAccountId?: string }) =>
  record.provider ?? (record.providerAccountId === undefined ? "sandbox" : "paymongo");

export type CheckoutState = "created" | "pending" | "paid" | "failed" | "cancelled" | "expired";

/**
 * A checkout's lifecycle. It is `created` while the provider prepares the payment page and
 * `pending` once the payer can pay; the payer's payment makes it `paid` or `failed`; a provider
 * that refuses to make the page makes it `failed` at once; an unpaid checkout can be cancelled
 * by the merchant or expire.
 */
export const checkoutStates = defineStateMachine<CheckoutState, "open" | "refuse" | "pay" | "fail" | "cancel" | "expire">(
  "checkout",
  {
    open: { from: ["created"], to: "pending" },
    refuse: { from: ["created"], to: "failed" },
    pay: { from: ["pending"], to: "paid" },
    fail: { from: ["pending"], to: "failed" },
    cancel: { from: ["created", "pending"], to: "cancelled" },
    expire: { from: ["created", "pending"], to: "expired" },
  },
  { open: "opened", refuse: "refused", pay: "paid", fail: "failed", cancel: "cancelled", expire: "expired" },
);

/** A checkout as stored in the `checkouts` collection. */
export interface CheckoutRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  referenceId: string;
  status: CheckoutState;
  amountMinor: number;
  currency: "PHP";
  successUrl: string;
  cancelUrl: string;
  metadata: StoredMetadata;
  checkoutUrl?: string;
  /** Proves that a hosted-page request came from checkoutUrl. */
  pageToken?: string;
  providerReference?: string;
  /** The project's provider account the checkout was made with; absent: the environment's default (the sandbox). */
  providerAccountId?: string;
  /** That account's provider (`paymongo`, `xendit`); absent on checkouts made before routing: `paymongo` with an account, else `sandbox`. */
  provider?: string;
  /** The accounts asked before this one, which made nothing (failover), oldest first. */
  providerAttempts?: ProviderAttempt[];
  /** The provider's id of the payment that paid it (PayMongo's `pay_…`), which refunds name. */
  providerPaymentId?: string;
  /** The method the payer used, as the provider named it (`gcash`, `qrph`…): the provider's refund rules depend on it. */
  paymentMethodUsed?: string;
  /** When the provider took the payment: refund windows run from it. */
  paidAt?: Date;
  /** Once paid: the method in Bayad's names (`card`, `maya`…); absent while unpaid or when the provider did not say. */
  paymentMethod?: PaymentMethodName;
  /** Once paid: what the provider kept, in centavos (tax on the fee included); absent: not reported (also every checkout paid before fees were kept). */
  feeMinor?: number;
  /** What is left to refund once paid. */
  refundableMinor?: number;
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

const protoStatus: Record<CheckoutState, CheckoutStatus> = {
  created: CheckoutStatus.CREATED,
  pending: CheckoutStatus.PENDING,
  paid: CheckoutStatus.PAID,
  failed: CheckoutStatus.FAILED,
  cancelled: CheckoutStatus.CANCELLED,
  expired: CheckoutStatus.EXPIRED,
};

export function checkoutToProto(record: CheckoutRecord): Checkout {
  return create(CheckoutSchema, {
    checkoutId: record._id,
    referenceId: record.referenceId,
    status: protoStatus[record.status],
    amount: { amountMinor: BigInt(record.amountMinor), currency: record.currency },
    checkoutUrl: record.checkoutUrl ?? "",
    aggregateVersion: record.aggregateVersion,
    successUrl: record.successUrl,
    cancelUrl: record.cancelUrl,
    metadata: fromStoredMetadata(record.metadata),
    createdAt: timestampFromDate(record.createdAt),
    providerAccountId: record.providerAccountId ?? "",
    provider: providerNameOf(record),
    paymentMethod: record.paymentMethod ?? "",
    ...(record.feeMinor === undefined ? {} : { fee: { amountMinor: BigInt(record.feeMinor), currency: record.currency } }),
  });
}
