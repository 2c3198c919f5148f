import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CustomerSchema, type Customer } from "@bayad/proto";
import type { Environment } from "@bayad/kit";

/** A customer as stored in the `customers` collection. */
export interface CustomerRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  customerReference: string;
  email: string;
  name?: string;
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
    createdAt: timestampFromDate(record.createdAt),
  });
}
