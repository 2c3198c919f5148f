import { isDuplicateKeyError, type CollectionDef, type Store } from "./port.js";

/** A named lease: who holds it and until when. */
interface LeaseRecord {
  _id: string;
  holder: string;
  expiresAt: Date;
}

const leasesCollection: CollectionDef = { name: "leases" };

export interface Lease {
  /**
   * Takes the lease for `holder` until `now + leaseMs`, or renews it if `holder` has it already.
   * True when `holder` holds it now. Another holder's unexpired lease is left alone; an expired
   * one (its holder crashed or stopped renewing) is taken over.
   */
  acquire(holder: string, now: Date, leaseMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` has it, so another can take it without waiting for expiry. */
  release(holder: string): Promise<void>;
}

/**
 * A lease in the `leases` collection, for work that one replica at a time should do (the billing
 * clock, the payments service's refund sweep). Acquiring is one conditional upsert: it matches the lease
 * document only if it is free for `holder` (held by it, or expired); when the document exists
 * but is not free, the upsert's insert collides on `_id` and the attempt loses. The store makes
 * that one atomic step, so at most one holder has the lease at a time.
 */
export function createLease(store: Store, name: string): Lease {
  const leases = store.collection<LeaseRecord>(leasesCollection);
  return {
    async acquire(holder, now, leaseMs) {
      try {
        const lease = await leases.findOneAndUpdate(
          { _id: name, $or: [{ holder }, { expiresAt: { $lte: now } }] },
          { $set: { holder, expiresAt: new Date(now.getTime() + leaseMs) } },
          { upsert: true },
        );
        return lease?.holder === holder;
      } catch (error) {
        if (isDuplicateKeyError(error, "_id_")) return false;
        throw error;
      }
    },

    async release(holder) {
      await leases.deleteOne({ _id: name, holder });
    },
  };
}
