import { randomBytes } from "node:crypto";
import { newId } from "@bayad/kit";
import { paymentRecordsCollection } from "@bayad/records-service";
import type { CollectionDef } from "@bayad/store";

/**
 * The documents one checkout leaves behind once its create request is done and its events are
 * published, written here exactly as the platform writes them, so that a store seeded through
 * this module holds what `npm start` would after that many checkouts: the payments service's
 * `checkouts` document (status pending: the sandbox answered and the page is open, version 2)
 * and the records service's `payment_records` document (projected from the `opened` event).
 *
 * Not seeded: the outbox (empty once published), the Idempotency-Key claims of the payments
 * service and the gateway's idempotency records (they expire after their 24-hour window, so a
 * platform holding a million checkouts holds only the last day's keys).
 *
 * The payments service exports neither its repository nor its record builder, so its collection
 * and document shape are restated here; `stored-checkouts.test.ts` pins them against a checkout
 * the platform itself created (bench/README.md says how the shape was taken).
 */

/** The payments service's `checkouts` collection (services/payments/src/checkouts/checkouts-repository.ts). */
export const checkoutsCollection: CollectionDef = {
  name: "checkouts",
  indexes: [
    { name: "checkouts_reference", keys: { projectId: 1, environment: 1, referenceId: 1 }, unique: true },
    { name: "checkouts_status_created", keys: { status: 1, createdAt: 1 } },
  ],
  retiredIndexes: ["checkouts_idempotency_key"],
};

export { paymentRecordsCollection };

/** A pending checkout as services/payments/src/checkouts/checkout.ts's CheckoutRecord stores it. */
export interface StoredCheckout {
  _id: string;
  projectId: string;
  environment: "test";
  referenceId: string;
  status: "pending";
  amountMinor: number;
  currency: "PHP";
  successUrl: string;
  cancelUrl: string;
  metadata: never[];
  idempotencyKey: string;
  aggregateVersion: 2;
  createdAt: Date;
  updatedAt: Date;
  checkoutUrl: string;
  pageToken: string;
  providerReference: string;
}

/** Its record in the feed, as services/records/src/records/payment-record.ts's PaymentRecordDoc. */
export interface StoredPaymentRecord {
  _id: string;
  type: "checkout";
  projectId: string;
  environment: "test";
  referenceId: string;
  relatedResourceId: null;
  amountMinor: string;
  currency: "PHP";
  /** The amount as a number, which amount ranges search. */
  amount: number;
  status: "pending";
  /** The sandbox took it: no provider account. */
  provider: "sandbox";
  providerAccountId: null;
  /** Not paid yet: no method, no fee; no metadata given. */
  paymentMethod: null;
  fee: null;
  metadata: null;
  metadataPairs: never[];
  createdAt: Date;
  aggregateVersion: 2;
  updatedAt: Date;
  /** A checkout has no customer; the second version's replace sets it (null), after the fields the first version wrote. */
  customerId: null;
}

/** Scenario 2's body (scenarios.ts checkoutBody). */
const amountMinor = 150_000;

/** Random text of `length` URL-safe characters, as the sandbox's tokens and references are. */
function token(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4)).toString("base64url").slice(0, length);
}

/**
 * Checkout number `index` of a seeding run named `run` (unique references and keys across runs),
 * created at `createdAt`, with its payment record. The provider answered 3 ms later and the
 * records service projected it 100 ms after that, as on an idle platform.
 */
export function storedCheckout(projectId: string, run: string, index: number, createdAt: Date): { checkout: StoredCheckout; record: StoredPaymentRecord } {
  const id = newId("chk");
  const pageToken = token(32);
  const openedAt = new Date(createdAt.getTime() + 3);
  const referenceId = `${run}-order-${index}`;
  const checkout: StoredCheckout = {
    _id: id,
    projectId,
    environment: "test",
    referenceId,
    status: "pending",
    amountMinor,
    currency: "PHP",
    successUrl: "https://shop.example.com/paid",
    cancelUrl: "https://shop.example.com/cart",
    metadata: [],
    idempotencyKey: `${run}-key-${index}`,
    aggregateVersion: 2,
    createdAt,
    updatedAt: openedAt,
    checkoutUrl: `/sandbox/checkouts/${id}?token=${pageToken}`,
    pageToken,
    providerReference: `cs_sandbox_${token(20)}`,
  };
  const record: StoredPaymentRecord = {
    _id: id,
    type: "checkout",
    projectId,
    environment: "test",
    referenceId,
    relatedResourceId: null,
    amountMinor: String(amountMinor),
    currency: "PHP",
    amount: amountMinor,
    status: "pending",
    provider: "sandbox",
    providerAccountId: null,
    paymentMethod: null,
    fee: null,
    metadata: null,
    metadataPairs: [],
    createdAt,
    aggregateVersion: 2,
    updatedAt: new Date(openedAt.getTime() + 100),
    customerId: null,
  };
  return { checkout, record };
}
