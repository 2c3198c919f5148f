import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import type { PaymentLinkRecord } from "./payment-link.js";

export const paymentLinksCollection: CollectionDef = {
  name: "payment_links",
  indexes: [
    { name: "payment_links_reference", keys: { projectId: 1, environment: 1, referenceId: 1 }, unique: true },
    { name: "payment_links_created", keys: { projectId: 1, environment: 1, createdAt: 1 } },
    // Active links of provider accounts, for the reconciler that reads them from the provider.
    { name: "payment_links_status_account", keys: { status: 1, providerAccountId: 1 } },
  ],
  // Keys live in idempotency_keys for their window only (a key kept here forever outlived it).
  retiredIndexes: ["payment_links_idempotency_key"],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** The only code that knows the `payment_links` collection. */
export function createPaymentLinksRepository(store: Store) {
  const links = store.collection<PaymentLinkRecord>(paymentLinksCollection);
  return {
    collection: links,

    findById(scope: Scope, linkId: string): Promise<PaymentLinkRecord | null> {
      return links.findOne({ _id: linkId, projectId: scope.projectId, environment: scope.environment });
    },

    /** Unscoped: for hosted pages, which prove access with the page token instead. */
    findByIdForPage(linkId: string): Promise<PaymentLinkRecord | null> {
      return links.findOne({ _id: linkId });
    },

    findByReference(scope: Scope, referenceId: string): Promise<PaymentLinkRecord | null> {
      return links.findOne({ projectId: scope.projectId, environment: scope.environment, referenceId });
    },

    /** The scope's links, newest first, at most `limit` (served by payment_links_created). */
    listNewestFirst(scope: Scope, limit: number): Promise<PaymentLinkRecord[]> {
      return links.find(
        { projectId: scope.projectId, environment: scope.environment },
        { sort: { createdAt: -1 }, limit },
      );
    },

    /**
     * Active links made at a provider account before `before`, by id after `afterId`, at most
     * `limit`: what the provider reconciler reads from the provider.
     */
    findActiveAtProviders(before: Date, afterId: string | undefined, limit: number): Promise<PaymentLinkRecord[]> {
      return links.find(
        {
          status: "active",
          providerAccountId: { $exists: true },
          createdAt: { $lt: before },
          ...(afterId !== undefined ? { _id: { $gt: afterId } } : {}),
        },
        { sort: { _id: 1 }, limit },
      );
    },

    conflictOf(error: unknown): "reference" | null {
      if (isDuplicateKeyError(error, "payment_links_reference")) return "reference";
      return null;
    },
  };
}

export type PaymentLinksRepository = ReturnType<typeof createPaymentLinksRepository>;
