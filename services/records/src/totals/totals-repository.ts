import type { Environment } from "@bayad/kit";
import type { Session, Store } from "@bayad/store";
import {
  counterNames,
  isZero,
  paymentTotalsCollection,
  totalsIdOf,
  wholeDayKeyOf,
  type PaymentTotalsDoc,
  type TotalsCounters,
  type TotalsKey,
} from "./totals-collection.js";

/**
 * The only code that knows the `payment_totals` collection. With `session`, every call belongs
 * to that store transaction: the projection writes a record and its totals in one.
 */
export function createPaymentTotalsRepository(store: Store, session?: Session) {
  const totals = store.collection<PaymentTotalsDoc>(paymentTotalsCollection);
  const inTransaction = session === undefined ? {} : { session };
  return {
    /**
     * Adds `counters` (negative ones take away) to the key's document, creating it if absent.
     * A document whose counters all come back to zero is removed, so the documents are exactly
     * the keys some record counts in: what a rebuild writes, and the groups a summary lists.
     */
    async add(key: TotalsKey, counters: TotalsCounters): Promise<void> {
      // The split document and its day's whole-day document move together.
      for (const wholeDay of [false, true]) {
        const filter = { _id: totalsIdOf(key, wholeDay) };
        const update = { $inc: { ...counters }, $setOnInsert: { ...(wholeDay ? wholeDayKeyOf(key) : key), wholeDay } };
        if (!counterNames.some((name) => counters[name] < 0)) {
          await totals.updateOne(filter, update, { ...inTransaction, upsert: true });
          continue;
        }
        const after = await totals.findOneAndUpdate(filter, update, { ...inTransaction, upsert: true, returnDocument: "after" });
        if (after !== null && isZero(after)) await totals.deleteOne(filter, inTransaction);
      }
    },

    /**
     * A project's environment's documents from one Philippine day to another, both inclusive: the
     * whole-day ones (one a day), or those split by method and account.
     */
    findDays(scope: { projectId: string; environment: Environment }, from: string, to: string, wholeDay: boolean): Promise<PaymentTotalsDoc[]> {
      return totals.find({ projectId: scope.projectId, environment: scope.environment, wholeDay, day: { $gte: from, $lte: to } }, inTransaction);
    },

    /** Replaces every document of the project's environments with `docs`; needs the session of a transaction. */
    async replaceScope(projectId: string, environments: Environment[], docs: PaymentTotalsDoc[]): Promise<void> {
      if (session === undefined) throw new Error("replaceScope must run in a transaction");
      for (const environment of environments) await totals.deleteMany({ projectId, environment }, inTransaction);
      for (const doc of docs) await totals.insertOne(doc, inTransaction);
    },
  };
}

export type PaymentTotalsRepository = ReturnType<typeof createPaymentTotalsRepository>;
