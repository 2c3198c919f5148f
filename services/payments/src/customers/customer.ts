import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CustomerSchema, type Customer } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

/** The languages customers are written to in: English and Filipino. */
export type CustomerLocale = "en" | "fil";

/** A customer as stored in the `customers` collection. */
export interface CustomerRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  customerReference: string;
  email: string;
  name?: string;
  /** A mobile number as `+<digits>`, for the SMS of billing's invoices. */
  phone?: string;
  /** The language messages to the customer are written in; absent: the project's default. */
  locale?: CustomerLocale;
  /** The Idempotency-Key of the request that created it (its claim is in idempotency_keys, for the key's window). */
  idempotencyKey: string;
  aggregateVersion: number;
  createdAt: Date;
}

export function customerToProto(record: CustomerRecord): Customer {
  return create(CustomerSchema, {
    customerId: record._id,
    customerReference: record.customerReference,
    email: record.email,
    name: record.name ?? "",
    phone: record.phone ?? "",
    locale: record.locale ?? "",
    createdAt: timestampFromDate(record.createdAt),
  });
}
