import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { InvoiceLineKind as ProtoLineKind, InvoiceLineSchema, InvoiceSchema, InvoiceStatus, ProviderPaymentSchema, type Invoice } from "@bayad/proto";
import { defineStateMachine, newId, type Environment } from "@bayad/kit";
import type { BillingPeriod } from "../clock/billing-periods.js";
import type { HostedPaymentSettlement } from "@bayad/provider";
import type { SubscriptionRecord } from "../subscriptions/subscription.js";

export type InvoiceState = "draft" | "open" | "paid" | "past_due" | "void";
export type InvoiceAction = "finalize" | "pay" | "fall_due" | "void";

/**
 * An invoice's lifecycle. It is written `draft` with the billing change that makes it, and
 * finalized to `open` once the provider has its payment page. It is due by the end of its
 * period: still unpaid then (or after a failed payment attempt) it is `past_due`, which can still
 * be paid late. Ending the subscription voids whatever is unpaid.
 */
export const invoiceStates = defineStateMachine<InvoiceState, InvoiceAction>(
  "invoice",
  {
    finalize: { from: ["draft"], to: "open" },
    pay: { from: ["open", "past_due"], to: "paid" },
    fall_due: { from: ["open"], to: "past_due" },
    void: { from: ["draft", "open", "past_due"], to: "void" },
  },
  { finalize: "finalized", pay: "paid", fall_due: "marked past due", void: "voided" },
);

/** The payment that paid an invoice, as its provider reported it (the sandbox names no payment id). */
export interface InvoicePayment {
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

/** The provider's payment as an invoice keeps it; a link PayMongo says is paid without naming the payment keeps no id. */
export function invoicePaymentOf(payment: HostedPaymentSettlement | undefined, now: Date): InvoicePayment {
  return {
    ...(payment?.id ? { providerPaymentId: payment.id } : {}),
    ...(payment?.method === undefined ? {} : { method: payment.method }),
    ...(payment?.paymentMethod === undefined ? {} : { paymentMethod: payment.paymentMethod }),
    ...(payment?.fee === undefined ? {} : { feeMinor: payment.fee }),
    paidAt: payment?.paidAt ?? now,
  };
}

/** A period's price (`charge`), the subscription's credit applied (`credit`), a plan change's share of a period (`proration`). */
export type InvoiceLineKind = "charge" | "credit" | "proration";

export interface InvoiceLine {
  description: string;
  /** Centavos, negative for a credit. */
  amountMinor: number;
  kind: InvoiceLineKind;
}

/** Lines with the subscription's credit balance applied (at most their sum), and what that used. */
export function withCreditApplied(lines: readonly InvoiceLine[], creditBalanceMinor: number): { lines: InvoiceLine[]; amountMinor: number; creditUsedMinor: number } {
  const sum = lines.reduce((total, line) => total + line.amountMinor, 0);
  const creditUsedMinor = Math.max(0, Math.min(creditBalanceMinor, sum));
  const applied = creditUsedMinor > 0 ? [...lines, { description: "Credit balance applied", amountMinor: -creditUsedMinor, kind: "credit" as const }] : [...lines];
  return { lines: applied, amountMinor: sum - creditUsedMinor, creditUsedMinor };
}

/**
 * An invoice as stored in the `invoices` collection: one per billing period of a subscription,
 * and one per plan change prorated within a period (`planChange`).
 */
export interface InvoiceRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  subscriptionId: string;
  /** The subscription's customer; absent on invoices written before it was kept (filled from the subscription on their next write). */
  customerId?: string;
  periodNumber: number;
  periodStart: Date;
  periodEnd: Date;
  /** The sum of `lines`. */
  amountMinor: number;
  currency: "PHP";
  /** What the amount is made of; absent on invoices written before lines (one charge line). */
  lines?: InvoiceLine[];
  /**
   * Set on a plan change's proration invoice: the subscription's count of plan changes, which
   * keeps it apart from its period's own invoice in the unique indexes (absent there).
   */
  planChange?: number;
  status: InvoiceState;
  /** Where the payer pays; set when the invoice is finalized. */
  hostedInvoiceUrl?: string;
  /** Proves that a hosted-page request came from hostedInvoiceUrl. */
  pageToken?: string;
  providerReference?: string;
  /**
   * The project's provider account the hosted payment was made at (a PayMongo link, a Xendit
   * invoice); absent for the sandbox's pages. Later calls reach that account, and the reconciler
   * reads the hosted payment there.
   */
  providerAccountId?: string;
  /**
   * Set once the hosted payment of a voided invoice is closed at its provider (PayMongo's link
   * archived, Xendit's invoice expired: so nobody pays a void invoice): bookkeeping of the
   * reconciler, not a state of the invoice (no version, no event). The stored name predates Xendit.
   */
  providerLinkArchived?: boolean;
  /** Set when the invoice is paid: the provider's payment, which refunds of the invoice are made against. */
  providerPayment?: InvoicePayment;
  /**
   * Dunning (dunning/): how many steps of the project's schedule the invoice has been through
   * (its reminders, and the final action after the last), counted in the transaction that
   * claims each step's messages, so no step is taken twice.
   */
  dunningStep?: number;
  /**
   * When the invoice's next dunning step is due: what the clock finds due invoices by. Set when
   * it opens; unset once it is paid or void, or past its last step.
   */
  nextDunningAt?: Date;
  aggregateVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The charge line of `period` of `subscription`. */
export function periodCharge(subscription: SubscriptionRecord, period: BillingPeriod): InvoiceLine {
  return { description: `${subscription.planName}, period ${period.periodNumber}`, amountMinor: subscription.amountMinor, kind: "charge" };
}

/**
 * The draft invoice that bills `period` of `subscription`: by default its charge line, less the
 * subscription's credit balance (the caller takes `creditUsedMinor` off it in the same write).
 */
export function draftInvoice(
  subscription: SubscriptionRecord,
  period: BillingPeriod,
  now: Date,
  charges: readonly InvoiceLine[] = [periodCharge(subscription, period)],
): { invoice: InvoiceRecord; creditUsedMinor: number } {
  const { lines, amountMinor, creditUsedMinor } = withCreditApplied(charges, subscription.creditBalanceMinor ?? 0);
  const invoice: InvoiceRecord = {
    _id: newId("inv"),
    projectId: subscription.projectId,
    environment: subscription.environment,
    subscriptionId: subscription._id,
    customerId: subscription.customerId,
    periodNumber: period.periodNumber,
    periodStart: period.start,
    periodEnd: period.end,
    amountMinor,
    currency: subscription.currency,
    lines,
    status: "draft",
    aggregateVersion: 1,
    createdAt: now,
    updatedAt: now,
  };
  return { invoice, creditUsedMinor };
}

/** An invoice is due by the end of its period. */
export const dueDateOf = (invoice: Pick<InvoiceRecord, "periodEnd">): Date => invoice.periodEnd;
const protoLineKind: Record<InvoiceLineKind, ProtoLineKind> = {
  charge: ProtoLineKind.CHARGE,
  credit: ProtoLineKind.CREDIT,
  proration: ProtoLineKind.PRORATION,
};

export const invoiceLineToProto = (line: InvoiceLine) =>
  create(InvoiceLineSchema, { description: line.description, amountMinor: BigInt(line.amountMinor), kind: protoLineKind[line.kind] });

const protoStatus: Record<InvoiceState, InvoiceStatus> = {
  draft: InvoiceStatus.DRAFT,
  open: InvoiceStatus.OPEN,
  paid: InvoiceStatus.PAID,
  past_due: InvoiceStatus.PAST_DUE,
  void: InvoiceStatus.VOID,
};

export function invoiceToProto(record: InvoiceRecord): Invoice {
  return create(InvoiceSchema, {
    invoiceId: record._id,
    subscriptionId: record.subscriptionId,
    customerId: record.customerId ?? "",
    status: protoStatus[record.status],
    amount: { amountMinor: BigInt(record.amountMinor), currency: record.currency },
    periodNumber: record.periodNumber,
    periodStart: timestampFromDate(record.periodStart),
    periodEnd: timestampFromDate(record.periodEnd),
    hostedInvoiceUrl: record.hostedInvoiceUrl ?? "",
    aggregateVersion: record.aggregateVersion,
    createdAt: timestampFromDate(record.createdAt),
    dunningStep: record.dunningStep ?? 0,
    ...(record.nextDunningAt ? { nextDunningAt: timestampFromDate(record.nextDunningAt) } : {}),
    lines: (record.lines ?? [{ description: `Period ${record.periodNumber}`, amountMinor: record.amountMinor, kind: "charge" }]).map(invoiceLineToProto),
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
