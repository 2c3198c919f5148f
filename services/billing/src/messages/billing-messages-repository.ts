import { isDuplicateKeyError, type CollectionDef, type Session, type Store } from "@bayad/store";
import type { BillingMessageRecord, BillingMessageStatus } from "./billing-message.js";

const billingMessagesCollection: CollectionDef = {
  name: "billing_messages",
  indexes: [
    // Pending messages due for a try, and sends left unsettled by a process that died.
    { name: "billing_messages_status_next", keys: { status: 1, nextAttemptAt: 1 } },
    { name: "billing_messages_status_started", keys: { status: 1, startedAt: 1 } },
    { name: "billing_messages_invoice", keys: { invoiceId: 1 } },
  ],
};

/** What a settled send records. */
export type SendOutcome =
  | { status: "sent" }
  | { status: "pending"; nextAttemptAt: Date; failure: string }
  | { status: Extract<BillingMessageStatus, "failed" | "uncertain">; failure: string };

/** The only code that knows the `billing_messages` collection. */
export function createBillingMessagesRepository(store: Store) {
  const messages = store.collection<BillingMessageRecord>(billingMessagesCollection);
  return {
    collection: messages,

    /** Records a step's message unless it is recorded already (true when this call recorded it). */
    async record(message: BillingMessageRecord): Promise<boolean> {
      try {
        await messages.insertOne(message);
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },

    /**
     * Records a step's message inside `session`, with the change that takes the step (a dunning
     * step's count): one already recorded breaks the unique id, aborting the whole transaction.
     */
    async recordWithin(message: BillingMessageRecord, session: Session): Promise<void> {
      await messages.insertOne(message, { session });
    },

    findById(id: string): Promise<BillingMessageRecord | null> {
      return messages.findOne({ _id: id });
    },

    /** Whether any message of the invoice's `step` is recorded (claimed), whatever became of it. */
    async hasStep(invoiceId: string, step: BillingMessageRecord["step"]): Promise<boolean> {
      return (await messages.findOne({ invoiceId, step })) !== null;
    },

    listForInvoice(invoiceId: string): Promise<BillingMessageRecord[]> {
      return messages.find({ invoiceId }, { sort: { createdAt: 1, _id: 1 } });
    },

    /**
     * Claims a pending message that is due, for one send: only one caller can, since the claim
     * is one atomic update of the message as it was (pending, that many attempts).
     */
    claim(message: Pick<BillingMessageRecord, "_id" | "attempts">, now: Date): Promise<BillingMessageRecord | null> {
      return messages.findOneAndUpdate(
        { _id: message._id, status: "pending", attempts: message.attempts, nextAttemptAt: { $lte: now } },
        { $set: { status: "sending", startedAt: now, updatedAt: now }, $inc: { attempts: 1 } },
      );
    },

    /** Records the outcome of the claimed send `attempts`; false when another claim superseded it. */
    async settle(message: Pick<BillingMessageRecord, "_id" | "attempts">, outcome: SendOutcome, now: Date): Promise<boolean> {
      const fields: Partial<BillingMessageRecord> = { status: outcome.status, updatedAt: now };
      if (outcome.status === "sent") fields.sentAt = now;
      if (outcome.status === "pending") fields.nextAttemptAt = outcome.nextAttemptAt;
      if ("failure" in outcome) fields.failure = outcome.failure;
      const result = await messages.updateOne({ _id: message._id, status: "sending", attempts: message.attempts }, { $set: fields });
      return result.matched === 1;
    },

    /** Pending messages due by `now`, oldest first. */
    findDue(now: Date, limit: number): Promise<BillingMessageRecord[]> {
      return messages.find({ status: "pending", nextAttemptAt: { $lte: now } }, { sort: { nextAttemptAt: 1 }, limit });
    },

    /** Sends started before `before` and never settled: their process died mid-send. */
    findAbandoned(before: Date, limit: number): Promise<BillingMessageRecord[]> {
      return messages.find({ status: "sending", startedAt: { $lt: before } }, { sort: { startedAt: 1 }, limit });
    },
  };
}

export type BillingMessagesRepository = ReturnType<typeof createBillingMessagesRepository>;
