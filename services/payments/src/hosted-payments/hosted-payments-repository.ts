import type { CollectionDef, Store } from "@bayad/store";
import type { Environment } from "@bayad/kit";

/**
 * A payment link or an invoice paid on a hosted page, as this service knows it: not its owner's
 * document (the links and billing services keep those), but what refunds need of it, learnt from
 * their events. Its id is the link's or invoice's (`link_…`, `inv_…`), which refunds name.
 */
export interface HostedPaymentRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  kind: "payment_link" | "invoice";
  /** Always `paid`: only paid links and invoices are recorded (the status refunds look for). */
  status: "paid";
  amountMinor: number;
  /** What is left to refund; refunds take from it. */
  refundableMinor: number;
  /** The provider account it was paid at (absent: the sandbox). */
  providerAccountId?: string;
  /** The provider's id of the payment (PayMongo's `pay_…`). */
  providerPaymentId?: string;
  paymentMethodUsed?: string;
  /** That method in Bayad's names, when the link's or invoice's service knew it (refunds copy it). */
  paymentMethod?: string;
  paidAt?: Date;
  /** Fixed: refunds change only refundableMinor, which carries no version. */
  aggregateVersion: number;
  createdAt: Date;
}

export const hostedPaymentsCollection: CollectionDef = { name: "hosted_payments", indexes: [] };

/** The only code that knows the `hosted_payments` collection. */
export function createHostedPaymentsRepository(store: Store) {
  const hostedPayments = store.collection<HostedPaymentRecord>(hostedPaymentsCollection);
  return {
    collection: hostedPayments,

    /**
     * Records a paid link or invoice once: a redelivered or repeated event changes nothing (in
     * particular not what its refunds have taken). True when it was recorded now.
     */
    async recordPaid(record: Omit<HostedPaymentRecord, "_id"> & { _id: string }): Promise<boolean> {
      const { _id, ...fields } = record;
      const result = await hostedPayments.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true });
      return result.upsertedId !== undefined;
    },
  };
}

export type HostedPaymentsRepository = ReturnType<typeof createHostedPaymentsRepository>;
