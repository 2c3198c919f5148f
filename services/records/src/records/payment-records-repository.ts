import { isDuplicateKeyError, type CollectionDef, type Filter, type Session, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { PaymentRecordDoc, ProjectedRecord } from "./payment-record.js";

/**
 * Every listing filters on project and environment, optionally on type, status, referenceId or
 * relatedResourceId, then ranges
 * and orders on (createdAt, _id): one index per filter shape, equality fields first.
 */
export const paymentRecordsCollection: CollectionDef = {
  name: "payment_records",
  indexes: [
    { name: "payment_records_feed", keys: { projectId: 1, environment: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_type", keys: { projectId: 1, environment: 1, type: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_status", keys: { projectId: 1, environment: 1, status: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_reference", keys: { projectId: 1, environment: 1, referenceId: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_related", keys: { projectId: 1, environment: 1, relatedResourceId: 1, createdAt: -1, _id: -1 } },
  ],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** A position in the feed: the last record of a page. */
export interface FeedPosition {
  createdAt: Date;
  id: string;
}

export interface FeedQuery {
  type?: string;
  status?: string;
  referenceId?: string;
  relatedResourceId?: string;
  /** Inclusive. */
  createdAfter?: Date;
  /** Exclusive. */
  createdBefore?: Date;
  /** Only records after this position in feed order (older, or as old with a lower id). */
  after?: FeedPosition;
  limit: number;
}

/**
 * The only code that knows the `payment_records` collection. With `session`, every call belongs
 * to that store transaction (the consumer projects a batch of events in one).
 */
export function createPaymentRecordsRepository(store: Store, session?: Session) {
  const records = store.collection<PaymentRecordDoc>(paymentRecordsCollection);
  const inTransaction = session === undefined ? {} : { session };
  return {
    findById(id: string): Promise<PaymentRecordDoc | null> {
      return records.findOne({ _id: id }, inTransaction);
    },

    /** Inserts the record; false when one with this id exists already (nothing written). */
    async insertIfAbsent(record: ProjectedRecord, now: Date): Promise<boolean> {
      // In a transaction a duplicate key would doom it, caught or not (the store port's contract,
      // as on MongoDB): look first. The transaction isolates the look from the insert; outside
      // one, the insert itself decides.
      if (session !== undefined && (await records.findOne({ _id: record._id }, inTransaction)) !== null) return false;
      try {
        await records.insertOne({ ...record, updatedAt: now }, inTransaction);
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error, "_id_")) return false;
        throw error;
      }
    },

    /**
     * Replaces the stored record's facts when it reflects an older version than `record`, in one
     * conditional write; false when absent or at this version or newer. Identity and createdAt
     * are left alone: a record never changes owner and never moves in the feed.
     */
    async replaceIfOlder(record: ProjectedRecord, now: Date): Promise<boolean> {
      const { matched } = await records.updateOne(
        { _id: record._id, aggregateVersion: { $lt: record.aggregateVersion } },
        {
          $set: {
            referenceId: record.referenceId,
            relatedResourceId: record.relatedResourceId,
            amountMinor: record.amountMinor,
            currency: record.currency,
            status: record.status,
            ...(record.provider !== undefined ? { provider: record.provider, providerAccountId: record.providerAccountId ?? null } : {}),
            paymentMethod: record.paymentMethod ?? null,
            customerId: record.customerId ?? null,
            amount: record.amount ?? null,
            fee: record.fee ?? null,
            metadata: record.metadata ?? null,
            metadataPairs: record.metadataPairs ?? [],
            aggregateVersion: record.aggregateVersion,
            updatedAt: now,
          },
        },
        inTransaction,
      );
      return matched === 1;
    },

    /** One page of the caller's feed, newest first, ties broken by id so the order is total. */
    findPage(scope: Scope, query: FeedQuery): Promise<PaymentRecordDoc[]> {
      const filter: Filter = { projectId: scope.projectId, environment: scope.environment };
      if (query.type !== undefined) filter.type = query.type;
      if (query.status !== undefined) filter.status = query.status;
      if (query.referenceId !== undefined) filter.referenceId = query.referenceId;
      if (query.relatedResourceId !== undefined) filter.relatedResourceId = query.relatedResourceId;
      const createdAt: Record<string, Date> = {};
      if (query.createdAfter) createdAt.$gte = query.createdAfter;
      if (query.createdBefore) createdAt.$lt = query.createdBefore;
      if (query.after) {
        // Keyset continuation: strictly after the last record seen, never an offset, so records
        // added meanwhile (newer, so before the position) cannot shift what comes next.
        filter.$or = [
          { createdAt: { $lt: query.after.createdAt } },
          { createdAt: query.after.createdAt, _id: { $lt: query.after.id } },
        ];
        // Implied by the $or, but stated so the index walk starts at the position instead of at
        // the newest record: every page costs the same however deep it is.
        createdAt.$lte = query.after.createdAt;
      }
      if (Object.keys(createdAt).length > 0) filter.createdAt = createdAt;
      return records.find(filter, { sort: { createdAt: -1, _id: -1 }, limit: query.limit });
    },
  };
}

export type PaymentRecordsRepository = ReturnType<typeof createPaymentRecordsRepository>;
