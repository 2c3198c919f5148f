import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { PaymentLinkSchema, PaymentLinkStatus, ProviderPaymentSchema, type PaymentLink } from "@bayad/proto";
import { defineStateMachine, fromStoredMetadata, type Environment, type StoredMetadata } from "@bayad/kit";

export type PaymentLinkState = "active" | "archived" | "paid";

/**
 * A payment link's lifecycle. A link is `active` from creation; the merchant may archive it and
 * make it active again; a payer's accepted payment makes an active link `paid`, for good (a paid
 * link cannot be archived or unarchived, and an archived link cannot be paid).
 */
export const paymentLinkStates = defineStateMachine<PaymentLinkState, "archive" | "unarchive" | "pay">(
  "payment link",
  {
    archive: { from: ["active"], to: "archived" },
    unarchive: { from: ["archived"], to: "active" },
    pay: { from: ["active"], to: "paid" },
  },
  { archive: "archived", unarchive: "unarchived", pay: "paid" },
);

/** The payment that paid a link, as its provider reported it (the sandbox names no payment id). */
export interface LinkPayment {
  /** The provider's id of the payment (PayMongo's `pay_…`). */
  providerPaymentId?: string;
  /** The method the payer used, as the provider names it (`gcash`, `card`…). */
  method?: string;
  /** That method in Bayad's names (`maya`, `online_banking`…); absent when unknown. */
  paymentMethod?: string;
  /** What the provider kept, in centavos (tax on the fee included); absent: not reported (also on payments kept before fees were). */
  feeMinor?: number;
  paidAt: Date;
}

/** A payment link as stored in the `payment_links` collection. */
export interface PaymentLinkRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  referenceId: string;
  amountMinor: number;
  currency: "PHP";
  description: string;
  /** Empty when the merchant gave none. */
  remarks: string;
  /** Includes `service_reference_id`, which the service sets to referenceId. */
  metadata: StoredMetadata;
  status: PaymentLinkState;
  /** Where the payer pays (the provider's hosted page). */
  url: string;
  /** The secret part of url that proves a hosted-page request came from that URL. */
  pageToken: string;
  providerReference: string;
  /**
   * The project's provider account the link was made at (PayMongo's `/v1/links`); absent for the
   * sandbox's links. Later calls reach that account, and the reconciler reads the link there.
   */
  providerAccountId?: string;
  /** The short reference the provider shows the payer. */
  referenceNumber: string;
  /** Set when the link is paid: the provider's payment, which refunds of the link are made against. */
  providerPayment?: LinkPayment;
  /**
   * The link's succeeded refunds (refund id → centavos), as the payments service announced them:
   * kept by id so that an announcement delivered twice counts once. The link stays `paid` (the
   * contract's statuses are active, archived and paid); it shows what was refunded instead.
   */
  refunds?: Record<string, number>;
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

const protoStatus: Record<PaymentLinkState, PaymentLinkStatus> = {
  active: PaymentLinkStatus.ACTIVE,
  archived: PaymentLinkStatus.ARCHIVED,
  paid: PaymentLinkStatus.PAID,
};

/** What the link's refunds have given back, in centavos. */
export const refundedMinorOf = (record: PaymentLinkRecord): number => Object.values(record.refunds ?? {}).reduce((sum, amount) => sum + amount, 0);

export function paymentLinkToProto(record: PaymentLinkRecord): PaymentLink {
  return create(PaymentLinkSchema, {
    paymentLinkId: record._id,
    referenceId: record.referenceId,
    amount: { amountMinor: BigInt(record.amountMinor), currency: record.currency },
    description: record.description,
    remarks: record.remarks,
    url: record.url,
    status: protoStatus[record.status],
    active: record.status === "active",
    archived: record.status === "archived",
    referenceNumber: record.referenceNumber,
    metadata: fromStoredMetadata(record.metadata),
    aggregateVersion: record.aggregateVersion,
    createdAt: timestampFromDate(record.createdAt),
    updatedAt: timestampFromDate(record.updatedAt),
    ...(record.refunds ? { refundedAmount: { amountMinor: BigInt(refundedMinorOf(record)), currency: record.currency } } : {}),
    ...(record.providerPayment
      ? {
          providerPayment: create(ProviderPaymentSchema, {
            providerAccountId: record.providerAccountId ?? "",
            providerPaymentId: record.providerPayment.providerPaymentId ?? "",
            method: record.providerPayment.method ?? "",
            paidAt: timestampFromDate(record.providerPayment.paidAt),
            paymentMethod: record.providerPayment.paymentMethod ?? "",
            ...(record.providerPayment.feeMinor === undefined
              ? {}
              : { fee: { amountMinor: BigInt(record.providerPayment.feeMinor), currency: record.currency } }),
          }),
        }
      : {}),
  });
}
