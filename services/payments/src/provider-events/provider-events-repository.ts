import { isDuplicateKeyError, type CollectionDef, type Store } from "@bayad/store";

/**
 * `applied`: it moved (or found moved) a resource; `ignored`: about nothing this service keeps;
 * `rejected`: PayMongo's own resource, read back, did not confirm what the event said (a forged
 * or stale event): nothing changed; `failed`: given up after repeated failures.
 */
export type ProviderEventState = "received" | "applied" | "ignored" | "rejected" | "failed";

/**
 * A provider's webhook delivery, kept once it verified: stored before it is acknowledged, so
 * nothing the provider was told we have is lost, then applied (and re-applied after a failure)
 * by the applier. Deliveries of one event are one record (`_id` = account and event id).
 */
export interface ProviderEventRecord {
  _id: string;
  providerAccountId: string;
  /** Absent on events stored before Xendit: PayMongo's. */
  provider?: "paymongo" | "xendit";
  /**
   * The provider's event id (PayMongo: evt_…). Xendit sends none: what its deliveries of one
   * callback share (the event and its resource's id, xendit-events.ts's deliveryKey).
   */
  eventId: string;
  type: string;
  livemode: boolean;
  /** The body as received (valid UTF-8 JSON; never logged: it may hold a payer's billing details). */
  body: string;
  state: ProviderEventState;
  attempts: number;
  /** Why the last attempt did not apply it (an error code or message, never the body). */
  lastError?: string;
  /** When the applier may try it next. */
  nextAttemptAt: Date;
  receivedAt: Date;
  settledAt?: Date;
  /** Kept 30 days: PayMongo retries a delivery for about 2 hours, Xendit for a day, so a redelivery meets it. */
  expiresAt: Date;
}

const providerEventsCollection: CollectionDef = {
  name: "provider_events",
  indexes: [
    { name: "provider_events_due", keys: { state: 1, nextAttemptAt: 1 } },
    { name: "provider_events_expiry", keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
  ],
};

const KEPT_MS = 30 * 86_400_000;

/** The only code that knows the `provider_events` collection. */
export function createProviderEventsRepository(store: Store) {
  const events = store.collection<ProviderEventRecord>(providerEventsCollection);
  return {
    collection: events,

    /** Stores a verified delivery; false when this event was stored before (a redelivery). */
    async insert(input: Pick<ProviderEventRecord, "providerAccountId" | "provider" | "eventId" | "type" | "livemode" | "body">, now: Date): Promise<boolean> {
      try {
        await events.insertOne({
          _id: `${input.providerAccountId}:${input.eventId}`,
          ...input,
          state: "received",
          attempts: 0,
          nextAttemptAt: now,
          receivedAt: now,
          expiresAt: new Date(now.getTime() + KEPT_MS),
        });
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },

    findById(id: string): Promise<ProviderEventRecord | null> {
      return events.findOne({ _id: id });
    },

    /** Events received and not yet applied whose next attempt is due, oldest first. */
    findDue(now: Date, limit: number): Promise<ProviderEventRecord[]> {
      return events.find({ state: "received", nextAttemptAt: { $lte: now } }, { sort: { nextAttemptAt: 1 }, limit });
    },

    async settle(id: string, state: "applied" | "ignored" | "rejected", now: Date): Promise<void> {
      await events.updateOne({ _id: id, state: "received" }, { $set: { state, settledAt: now }, $inc: { attempts: 1 } });
    },

    /** Records a failed attempt: tried again at `nextAttemptAt`, or given up (`failed`) when that is undefined. */
    async attemptFailed(id: string, error: string, nextAttemptAt: Date | undefined, now: Date): Promise<void> {
      await events.updateOne(
        { _id: id, state: "received" },
        nextAttemptAt === undefined
          ? { $set: { state: "failed", lastError: error, settledAt: now }, $inc: { attempts: 1 } }
          : { $set: { lastError: error, nextAttemptAt }, $inc: { attempts: 1 } },
      );
    },
  };
}

export type ProviderEventsRepository = ReturnType<typeof createProviderEventsRepository>;
