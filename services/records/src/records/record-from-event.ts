import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import {
  CheckoutStatusSchema,
  InvoiceStatusSchema,
  PaymentIntentStatusSchema,
  PaymentLinkStatusSchema,
  RefundStatusSchema,
  SubscriptionStatusSchema,
  PaymentMethodSchema,
  type Event,
  type Money,
  type ProviderPayment,
} from "@bayad/proto";
import { amountToDecimalText, enumToTextOrNull, publicPaymentIntentStatus } from "@bayad/kit";
import type { PaymentRecordType, ProjectedRecord } from "./payment-record.js";

/** An event that decodes but cannot be projected: acknowledged and logged, never retried. */
export class MalformedEventError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = "MalformedEventError";
  }
}

/** Proto3 strings have no null: empty text means "not set". */
function textOrNull(value: string): string | null {
  return value === "" ? null : value;
}

function amountOf(money: Money | undefined, negative = false): Pick<ProjectedRecord, "amountMinor" | "currency" | "amount"> {
  if (!money) return { amountMinor: null, currency: null, amount: null };
  const amount = negative ? -Number(money.amountMinor) : Number(money.amountMinor);
  return { amountMinor: amountToDecimalText(Number(money.amountMinor), negative), currency: textOrNull(money.currency), amount };
}

/** Centavos the provider kept; null when it reported none (an unset Money). */
const feeOf = (fee: Money | undefined): number | null => (fee ? Number(fee.amountMinor) : null);

/** The metadata and its searchable pairs; none for an empty map. */
function metadataOf(metadata: Record<string, string>): Pick<ProjectedRecord, "metadata" | "metadataPairs"> {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return { metadata: null, metadataPairs: [] };
  return { metadata: { ...metadata }, metadataPairs: entries.map((pair) => metadataPair(pair[0], pair[1])) };
}

/** How one metadata pair is indexed: unambiguous whatever characters key and value hold. */
export const metadataPair = (key: string, value: string): string => JSON.stringify([key, value]);


type Facts = Pick<
  ProjectedRecord,
  "referenceId" | "relatedResourceId" | "amountMinor" | "currency" | "amount" | "status" | "provider" | "providerAccountId"
> &
  Partial<Pick<ProjectedRecord, "paymentMethod" | "customerId" | "fee" | "metadata" | "metadataPairs">>;

/** The provider and the project's account that took a checkout or payment intent, from its snapshot. */
const tookPayment = (payment: { provider: string; providerAccountId: string }) => ({
  provider: textOrNull(payment.provider),
  providerAccountId: textOrNull(payment.providerAccountId),
});

/** A payment link's or invoice's hosted payment, once paid: where, how, and what the provider kept. */
function paidBy(payment: ProviderPayment | undefined): Pick<Facts, "provider" | "providerAccountId" | "paymentMethod" | "fee"> {
  if (!payment) return { provider: null, providerAccountId: null, paymentMethod: null, fee: null };
  return {
    provider: null,
    providerAccountId: textOrNull(payment.providerAccountId),
    paymentMethod: textOrNull(payment.paymentMethod),
    fee: feeOf(payment.fee),
  };
}

/**
 * The payment record an event describes, or null when the event is not about a payment
 * resource (customers, plans, and snapshot kinds this build does not know).
 * Throws MalformedEventError when the event lacks what every record needs.
 */
export function recordFromEvent(event: Event): ProjectedRecord | null {
  const { snapshot } = event;
  switch (snapshot.case) {
    case "checkout": {
      const checkout = snapshot.value;
      return withEnvelope(event, "checkout", checkout.createdAt, {
        referenceId: textOrNull(checkout.referenceId),
        relatedResourceId: null,
        ...amountOf(checkout.amount),
        status: enumToTextOrNull(CheckoutStatusSchema, checkout.status),
        ...tookPayment(checkout),
        paymentMethod: textOrNull(checkout.paymentMethod),
        fee: feeOf(checkout.fee),
        ...metadataOf(checkout.metadata),
      });
    }
    case "paymentIntent": {
      const intent = snapshot.value;
      const status = enumToTextOrNull(PaymentIntentStatusSchema, intent.status);
      return withEnvelope(event, "payment_intent", intent.createdAt, {
        referenceId: textOrNull(intent.referenceId),
        relatedResourceId: null,
        ...amountOf(intent.amount),
        status: status === null ? null : publicPaymentIntentStatus(status),
        ...tookPayment(intent),
        // The enum's names are Bayad's method names ("online_banking", "gcash", …).
        paymentMethod: enumToTextOrNull(PaymentMethodSchema, intent.paymentMethod),
        fee: feeOf(intent.fee),
      });
    }
    case "refund": {
      const refund = snapshot.value;
      return withEnvelope(event, "refund", refund.createdAt, {
        referenceId: null,
        relatedResourceId: textOrNull(refund.paymentId),
        // Money leaving the merchant: the feed shows refunds negative so amounts can be summed.
        ...amountOf(refund.amount, true),
        status: enumToTextOrNull(RefundStatusSchema, refund.status),
        ...tookPayment(refund),
        paymentMethod: textOrNull(refund.paymentMethod),
        fee: feeOf(refund.fee),
      });
    }
    case "subscription": {
      const subscription = snapshot.value;
      return withEnvelope(event, "subscription", subscription.createdAt, {
        referenceId: textOrNull(subscription.referenceId),
        relatedResourceId: textOrNull(subscription.customerId),
        // What one period costs (the plan's price when subscribed).
        ...amountOf(subscription.amount),
        status: enumToTextOrNull(SubscriptionStatusSchema, subscription.status),
        customerId: textOrNull(subscription.customerId),
      });
    }
    case "invoice": {
      const invoice = snapshot.value;
      return withEnvelope(event, "invoice", invoice.createdAt, {
        referenceId: null,
        relatedResourceId: textOrNull(invoice.subscriptionId),
        ...amountOf(invoice.amount),
        status: enumToTextOrNull(InvoiceStatusSchema, invoice.status),
        customerId: textOrNull(invoice.customerId),
        ...paidBy(invoice.providerPayment),
      });
    }
    case "paymentLink": {
      const link = snapshot.value;
      return withEnvelope(event, "payment_link", link.createdAt, {
        referenceId: textOrNull(link.referenceId),
        relatedResourceId: null,
        ...amountOf(link.amount),
        status: enumToTextOrNull(PaymentLinkStatusSchema, link.status),
        ...paidBy(link.providerPayment),
        ...metadataOf(link.metadata),
      });
    }
    case "customer":
    case "plan":
    case "providerAccount":
    case undefined:
      return null;
  }
}

/** The fields every record takes from the event itself, checked. */
function withEnvelope(event: Event, type: PaymentRecordType, createdAt: Timestamp | undefined, facts: Facts): ProjectedRecord {
  if (event.resourceId === "") throw new MalformedEventError(`event ${event.eventId} has no resource_id`);
  if (event.projectId === "") throw new MalformedEventError(`event ${event.eventId} has no project_id`);
  const { environment } = event;
  if (environment !== "test" && environment !== "live") {
    throw new MalformedEventError(`event ${event.eventId} has environment "${environment}"`);
  }
  // Versions start at 1; 0 is proto3's "not set", and such an event could never be ordered.
  if (event.aggregateVersion < 1) throw new MalformedEventError(`event ${event.eventId} has no aggregate_version`);
  const created = createdAt ?? event.occurredAt;
  if (!created) throw new MalformedEventError(`event ${event.eventId} has neither created_at nor occurred_at`);
  return {
    _id: event.resourceId,
    type,
    projectId: event.projectId,
    environment,
    ...facts,
    createdAt: timestampDate(created),
    aggregateVersion: event.aggregateVersion,
  };
}
