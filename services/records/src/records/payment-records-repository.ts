import { isDuplicateKeyError, type CollectionDef, type Filter, type Session, type SortSpec, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { PaymentRecordDoc, ProjectedRecord } from "./payment-record.js";
import { metadataPair } from "./record-from-event.js";

/**
 * Every listing filters on project and environment, optionally on one more field, then ranges
 * and orders on (createdAt, _id): one index per filter shape, equality fields first. Filters
 * combine: the planner walks one index and matches the rest. `metadataPairs` is an array, so its
 * index is multikey and yields no order: a metadata search reads every record with the pair (few
 * do) and sorts them. An amount range is a range, so its index does not yield the feed's order
 * either (see findPage).
 */
export const paymentRecordsCollection: CollectionDef = {
  name: "payment_records",
  indexes: [
    { name: "payment_records_feed", keys: { projectId: 1, environment: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_type", keys: { projectId: 1, environment: 1, type: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_status", keys: { projectId: 1, environment: 1, status: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_reference", keys: { projectId: 1, environment: 1, referenceId: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_related", keys: { projectId: 1, environment: 1, relatedResourceId: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_customer", keys: { projectId: 1, environment: 1, customerId: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_metadata", keys: { projectId: 1, environment: 1, metadataPairs: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_method", keys: { projectId: 1, environment: 1, paymentMethod: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_account", keys: { projectId: 1, environment: 1, providerAccountId: 1, createdAt: -1, _id: -1 } },
    { name: "payment_records_feed_amount", keys: { projectId: 1, environment: 1, amount: 1, createdAt: -1, _id: -1 } },
  ],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** A position in the feed: the last record of a page. */
export interface FeedPosition {
  createdAt: Date;
  id: string;
}

/** What a listing or an export selects; absent fields select everything. */
export interface FeedFilters {
  type?: string;
  status?: string;
  referenceId?: string;
  relatedResourceId?: string;
  customerId?: string;
  /** Records whose metadata holds this key with this value. */
  metadata?: { key: string; value: string };
  /** Inclusive bounds on the signed amount in centavos (refunds negative). */
  amountMin?: number;
  amountMax?: number;
  paymentMethod?: string;
  providerAccountId?: string;
  /** Inclusive. */
  createdAfter?: Date;
  /** Exclusive. */
  createdBefore?: Date;
}

export interface FeedQuery extends FeedFilters {
  /** Only records after this position in feed order (older, or as old with a lower id). */
  after?: FeedPosition;
  limit: number;
}

/** The feed's order: newest first, ties broken by id so the order is total. */
export const feedSort: SortSpec = { createdAt: -1, _id: -1 };

/** The store filter of one page of the caller's feed (exported for the index-plan tests). */
export function feedFilter(scope: Scope, query: Omit<FeedQuery, "limit">): Filter {
  const filter: Filter = { projectId: scope.projectId, environment: scope.environment };
  if (query.type !== undefined) filter.type = query.type;
  if (query.status !== undefined) filter.status = query.status;
  if (query.referenceId !== undefined) filter.referenceId = query.referenceId;
  if (query.relatedResourceId !== undefined) filter.relatedResourceId = query.relatedResourceId;
  if (query.customerId !== undefined) filter.customerId = query.customerId;
  if (query.metadata !== undefined) filter.metadataPairs = metadataPair(query.metadata.key, query.metadata.value);
  if (query.paymentMethod !== undefined) filter.paymentMethod = query.paymentMethod;
  if (query.providerAccountId !== undefined) filter.providerAccountId = query.providerAccountId;
  if (query.amountMin !== undefined && query.amountMin === query.amountMax) {
    // One amount is an equality: its index then walks in feed order and stops at the limit.
    filter.amount = query.amountMin;
  } else if (query.amountMin !== undefined || query.amountMax !== undefined) {
    // A range: records without an amount (projected before it was stored) hold none and
    // never match. The embedded planner prefers the ordered feed walk, which stops at the
    // page's limit, to reading every amount in range and sorting; MongoDB's planner races
    // both plans and keeps the faster for this query shape.
    filter.amount = {
      ...(query.amountMin !== undefined ? { $gte: query.amountMin } : {}),
      ...(query.amountMax !== undefined ? { $lte: query.amountMax } : {}),
    };
  }
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
  return filter;
}

/**
 * The only code that knows the `payment_records` collection. With `session`, every call belongs
 * to that store transaction (the consumer projects a batch of events in one).
 */
export function createPaymentRecordsRepository(store: Store, session?: Session) {
  const records = store.collection<PaymentRecordDoc>(paymentRecordsCollection);
  const inTransaction = session === undefined ? {} : { session };

  /** One page of the caller's feed, newest first, ties broken by id so the order is total. */
  function findPage(scope: Scope, query: FeedQuery): Promise<PaymentRecordDoc[]> {
    return records.find(feedFilter(scope, query), { sort: feedSort, limit: query.limit });
  }

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
     * Inserts a record the caller's transaction has just read as absent: no second look (a
     * concurrent insert of the same id conflicts with the transaction, which then runs again).
     */
    async insert(record: ProjectedRecord, now: Date): Promise<void> {
      await records.insertOne({ ...record, updatedAt: now }, inTransaction);
    },

    /**
     * Replaces the stored record's facts when it reflects an older version than `record`, in one
     * conditional write, and answers the record as written; null when absent or at this version
     * or newer. Identity and createdAt are left alone: a record never changes owner and never
     * moves in the feed.
     */
    replaceIfOlder(record: ProjectedRecord, now: Date): Promise<PaymentRecordDoc | null> {
      return records.findOneAndUpdate(
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
        { ...inTransaction, returnDocument: "after" },
      );
    },

    findPage,

    /**
     * Every record matching `filters`, in feed order, as pages of `pageSize` read by keyset one
     * after another: the next page is read only when the caller asks for it, so memory holds one
     * page whatever the total. Ends early when `signal` aborts.
     */
    async *walk(scope: Scope, filters: FeedFilters, pageSize: number, signal?: AbortSignal): AsyncGenerator<PaymentRecordDoc[]> {
      // A function, not a narrowed property: the signal may abort while a page is read.
      const aborted = () => signal?.aborted === true;
      let after: FeedPosition | undefined;
      while (!aborted()) {
        const page = await findPage(scope, { ...filters, ...(after ? { after } : {}), limit: pageSize });
        if (page.length === 0 || aborted()) return;
        yield page;
        if (page.length < pageSize) return;
        const last = page[page.length - 1];
        after = { createdAt: last.createdAt, id: last._id };
      }
    },
  };
}

export type PaymentRecordsRepository = ReturnType<typeof createPaymentRecordsRepository>;
