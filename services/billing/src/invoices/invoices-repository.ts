import { isDuplicateKeyError, type CollectionDef, type Session, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { InvoiceRecord } from "./invoice.js";

export const invoicesCollection: CollectionDef = {
  name: "invoices",
  indexes: [
    // The store-level guarantee that a period is billed at most once, whoever bills it, and each
    // plan change prorated once: a period's own invoice has no planChange (indexed as null), a
    // proration invoice the subscription's count of changes.
    { name: "invoices_subscription_period_change", keys: { subscriptionId: 1, periodNumber: 1, planChange: 1 }, unique: true },
    // …and that no span of time is billed twice: two periods never start at one instant.
    { name: "invoices_subscription_period_start_change", keys: { subscriptionId: 1, periodStart: 1, planChange: 1 }, unique: true },
    // Drafts left behind by a crash between billing and finalizing, for the clock to finalize.
    { name: "invoices_status_created", keys: { status: 1, createdAt: 1 } },
    // Unpaid invoices of provider accounts, for the reconciler that reads them from the provider.
    { name: "invoices_status_account", keys: { status: 1, providerAccountId: 1 } },
    // Invoices whose next dunning step is due, for the clock (only those with a step ahead).
    { name: "invoices_next_dunning", keys: { nextDunningAt: 1 }, partial: { nextDunningAt: { $exists: true } } },
    // Invoices paid lately, for the clock's catch-up of receipts (messages/invoice-messages-sweep.ts).
    { name: "invoices_status_paid_at", keys: { status: 1, "providerPayment.paidAt": 1 } },
  ],
  // Replaced in the same release by the indexes above with planChange appended, against the rule
  // of two releases (libs/store/README.md), because the old ones would refuse every proration
  // invoice. The guard does not lapse during a rollout: older pods write period invoices without
  // planChange, which the new indexes key as null, so they still allow one per period and start.
  retiredIndexes: ["invoices_subscription_period", "invoices_subscription_period_start"],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `invoices` collection. */
export function createInvoicesRepository(store: Store) {
  const invoices = store.collection<InvoiceRecord>(invoicesCollection);
  return {
    collection: invoices,

    findById(scope: Scope, invoiceId: string): Promise<InvoiceRecord | null> {
      return invoices.findOne({ _id: invoiceId, projectId: scope.projectId, environment: scope.environment });
    },

    /** Unscoped: for hosted pages (which prove access with the page token) and the clock. */
    findByIdUnscoped(invoiceId: string, session?: Session): Promise<InvoiceRecord | null> {
      return invoices.findOne({ _id: invoiceId }, { session });
    },

    /** A subscription's invoices, oldest period first. */
    listForSubscription(subscriptionId: string, session?: Session): Promise<InvoiceRecord[]> {
      return invoices.find({ subscriptionId }, { sort: { periodNumber: 1 }, session });
    },

    findDrafts(limit: number): Promise<InvoiceRecord[]> {
      return invoices.find({ status: "draft" }, { sort: { createdAt: 1 }, limit });
    },

    /** Invoices in `status` created at `since` or later, oldest first, at most `limit`, but those in `skip`. */
    findCreatedSince(status: InvoiceRecord["status"], since: Date, limit: number, skip: readonly string[] = []): Promise<InvoiceRecord[]> {
      return invoices.find(
        { status, createdAt: { $gte: since }, ...(skip.length ? { _id: { $nin: [...skip] } } : {}) },
        { sort: { createdAt: 1 }, limit },
      );
    },

    /** Paid invoices whose payment was made at `since` or later, earliest first, at most `limit`, but those in `skip`. */
    findPaidSince(since: Date, limit: number, skip: readonly string[] = []): Promise<InvoiceRecord[]> {
      return invoices.find(
        { status: "paid", "providerPayment.paidAt": { $gte: since }, ...(skip.length ? { _id: { $nin: [...skip] } } : {}) },
        { sort: { "providerPayment.paidAt": 1 }, limit },
      );
    },

    /**
     * Open and past-due invoices whose hosted payment was made at a provider account before
     * `before`, by id after `afterId`, at most `limit`: what the provider reconciler reads.
     */
    findUnpaidAtProviders(before: Date, afterId: string | undefined, limit: number): Promise<InvoiceRecord[]> {
      return invoices.find(
        {
          status: { $in: ["open", "past_due"] },
          providerAccountId: { $exists: true },
          createdAt: { $lt: before },
          ...(afterId !== undefined ? { _id: { $gt: afterId } } : {}),
        },
        { sort: { _id: 1 }, limit },
      );
    },

    /**
     * Invoices whose next dunning step was due by `now`, longest due first, at most `limit`, but
     * those in `skip`; only `scope`'s when given (a test helper running the clock).
     */
    findDunningDue(now: Date, limit: number, skip: readonly string[] = [], scope?: Scope): Promise<InvoiceRecord[]> {
      return invoices.find(
        {
          nextDunningAt: { $lte: now },
          ...(skip.length ? { _id: { $nin: [...skip] } } : {}),
          ...(scope ? { projectId: scope.projectId, environment: scope.environment } : {}),
        },
        { sort: { nextDunningAt: 1 }, limit },
      );
    },

    /** Removes the invoice's next dunning step (`next`, just written in `session`, has none). */
    async stopDunning(next: InvoiceRecord, session: Session): Promise<void> {
      await invoices.updateOne({ _id: next._id, aggregateVersion: next.aggregateVersion }, { $unset: { nextDunningAt: true } }, { session });
    },

    /**
     * Moves the invoice's next dunning step (none: removes it) without a new version: bookkeeping
     * after the project's schedule changed, no step taken. False when the invoice changed since read.
     */
    async rescheduleDunning(invoice: InvoiceRecord, nextDunningAt: Date | undefined): Promise<boolean> {
      const update = nextDunningAt === undefined ? { $unset: { nextDunningAt: true as const } } : { $set: { nextDunningAt } };
      const result = await invoices.updateOne({ _id: invoice._id, aggregateVersion: invoice.aggregateVersion }, update);
      return result.matched > 0;
    },

    /** Voided invoices whose hosted payment is not closed at the provider yet, at most `limit`. */
    findVoidedWithLiveProviderLinks(limit: number): Promise<InvoiceRecord[]> {
      return invoices.find({ status: "void", providerAccountId: { $exists: true }, providerLinkArchived: { $ne: true } }, { limit });
    },

    /** Notes that the invoice's hosted payment is closed at the provider (no version bump: a void invoice never moves again). */
    async markProviderLinkArchived(invoiceId: string): Promise<void> {
      await invoices.updateOne({ _id: invoiceId, status: "void" }, { $set: { providerLinkArchived: true } });
    },

    isPeriodConflict(error: unknown): boolean {
      return (
        isDuplicateKeyError(error, "invoices_subscription_period_change") || isDuplicateKeyError(error, "invoices_subscription_period_start_change")
      );
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
