import type { Timestamp } from "@bufbuild/protobuf/wkt";
import type { PaymentRecord } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

/** The record types of the feed, as the REST contract names them (its `type` enum). */
export const paymentRecordTypes = ["checkout", "payment_intent", "refund", "subscription", "invoice", "payment_link"] as const;

export type PaymentRecordType = (typeof paymentRecordTypes)[number];

export function isPaymentRecordType(value: string): value is PaymentRecordType {
  return (paymentRecordTypes as readonly string[]).includes(value);
}

/**
 * What an event says about one payment resource: everything the record holds except the
 * projection's own bookkeeping (`updatedAt`). Absent facts are null, never empty text.
 */
export interface ProjectedRecord {
  /** The resource id. */
  _id: string;
  type: PaymentRecordType;
  projectId: string;
  environment: Environment;
  referenceId: string | null;
  relatedResourceId: string | null;
  /** Decimal integer text of centavos; negative for refunds. */
  amountMinor: string | null;
  currency: string | null;
  status: string | null;
  /** Checkouts and payment intents: the provider that took the payment, and the project's account it was made at. */
  provider?: string | null;
  providerAccountId?: string | null;
  /** The method paid with, in Bayad's names ("card", "gcash", …); refunds: their payment's. */
  paymentMethod?: string | null;
  /** Subscriptions and invoices: the customer. */
  customerId?: string | null;
  /** The amount as a number of centavos, signed as amountMinor: what amount ranges search. */
  amount?: number | null;
  /** Centavos the provider kept (a paid payment's fee, a refund's fee); null when not reported. */
  fee?: number | null;
  /** The resource's metadata, when it has any. */
  metadata?: Record<string, string> | null;
  /** One entry per metadata pair, JSON.stringify([key, value]): what metadata searches walk (multikey). */
  metadataPairs?: string[];
  /** The resource's creation time; it orders the feed and never changes once stored. */
  createdAt: Date;
  /** The version of the event this record reflects; only a higher one may replace it. */
  aggregateVersion: number;
}

/** One document of the `payment_records` collection. */
export interface PaymentRecordDoc extends ProjectedRecord {
  /** When the projection last wrote the record. */
  updatedAt: Date;
}

/**
 * The wire form: null fields are left unset, which the proto's `optional` reads as absent. Built
 * as the message's object literal, not with create(): a page builds 50 of them, and create()
 * walks the schema's fields for each (the PaymentRecord type still names every field, and a test
 * holds it equal to create()'s, its createdAt to timestampFromDate's).
 */
export function paymentRecordToProto(doc: PaymentRecordDoc): PaymentRecord {
  const record: PaymentRecord = {
    $typeName: "bayad.records.v1.PaymentRecord",
    type: doc.type,
    id: doc._id,
    projectId: doc.projectId,
    environment: doc.environment,
    createdAt: timestampOf(doc.createdAt),
    metadata: doc.metadata ?? {},
  };
  if (doc.referenceId !== null) record.referenceId = doc.referenceId;
  if (doc.relatedResourceId !== null) record.relatedResourceId = doc.relatedResourceId;
  if (doc.amountMinor !== null) record.amountMinor = doc.amountMinor;
  if (doc.currency !== null) record.currency = doc.currency;
  if (doc.status !== null) record.status = doc.status;
  // Records projected before payments named their provider have neither.
  if (doc.provider != null) record.provider = doc.provider;
  if (doc.providerAccountId != null) record.providerAccountId = doc.providerAccountId;
  if (doc.paymentMethod != null) record.paymentMethod = doc.paymentMethod;
  if (doc.customerId != null) record.customerId = doc.customerId;
  if (doc.fee != null) {
    record.feeMinor = String(doc.fee);
    if (doc.amount != null) record.netMinor = String(doc.amount - doc.fee);
  }
  return record;
}

/** timestampFromDate's Timestamp, as a literal: whole seconds (rounded down), the rest in nanoseconds. */
function timestampOf(date: Date): Timestamp {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { $typeName: "google.protobuf.Timestamp", seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}
