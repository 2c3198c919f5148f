import type { CollectionDef, Session, Store } from "@bayad/store";
import { resealCollection, type CallerContext, type ResealCounts, type SealingKeys } from "@bayad/kit";
import { pendingMessageSealedValues } from "../codes/sealed-message.js";
import { MAX_WRONG_ATTEMPTS, type DeliveryState, type OtpRecord } from "./otp.js";
import type { ChannelAttempt } from "./channel-attempts.js";

const otpsCollection: CollectionDef = {
  name: "otps",
  indexes: [
    { name: "otps_purge", keys: { purgeAt: 1 }, expireAfterSeconds: 0 },
  ],
  // Keys live in idempotency_keys for their 7-day window only (here they outlived it).
  retiredIndexes: ["otps_idempotency_key"],
};

type Scope = Pick<CallerContext, "projectId" | "environment">;

/** How a delivery attempt ended. */
export type DeliveryOutcome = { delivery: "sent" } | { delivery: "uncertain" } | { delivery: "failed"; failure: string; channels?: ChannelAttempt[] };

/** The entry of the channel list a failed delivery falls back to (see deliver). */
export interface ChannelSwitch {
  channel: OtpRecord["channel"];
  target: string;
  recipientHash: string;
  numberPrefix?: string;
  channels: ChannelAttempt[];
  sealedMessage: string;
  at: Date;
}

/**
 * The only code that knows the `otps` collection. Every state change is a conditional update
 * on the state it was decided from, so concurrent requests (on any replica) cannot both win.
 */
export function createOtpsRepository(store: Store) {
  const otps = store.collection<OtpRecord>(otpsCollection);

  /** Still open to a verification: pending, delivered or possibly delivered, not expired. */
  const verifiable = (now: Date) => ({
    state: "pending",
    delivery: { $ne: "failed" },
    expiresAt: { $gt: now },
    attempts: { $lt: MAX_WRONG_ATTEMPTS },
  });

  return {
    /** Seals every message awaiting a resend again under the ring's newest key. */
    resealSecrets(keys: SealingKeys): Promise<ResealCounts> {
      return resealCollection(otps, keys, pendingMessageSealedValues, { sealedMessage: { $exists: true } });
    },

    /** Inserts within `session`: the transaction that also claims the request's Idempotency-Key. */
    insert(record: OtpRecord, session: Session): Promise<void> {
      return otps.insertOne(record, { session });
    },

    findById(scope: Scope, otpId: string): Promise<OtpRecord | null> {
      return otps.findOne({ _id: otpId, projectId: scope.projectId, environment: scope.environment });
    },

    /**
     * Records how send number `attempt` ended. Matches only while that attempt is still the
     * latest, so a slow send cannot overwrite a later resend's outcome. The sealed message goes
     * once the outcome is settled; an uncertain one keeps it for the reconciling resend.
     */
    settleDelivery(otpId: string, attempt: number, outcome: DeliveryOutcome): Promise<OtpRecord | null> {
      const settled = outcome.delivery !== "uncertain";
      return otps.findOneAndUpdate(
        { _id: otpId, deliveryAttempts: attempt, delivery: "sending" },
        {
          $set: {
            delivery: outcome.delivery,
            ...(outcome.delivery === "failed" ? { deliveryFailure: outcome.failure, ...(outcome.channels ? { channels: outcome.channels } : {}) } : {}),
          },
          ...(settled ? { $unset: { sealedMessage: true as const } } : {}),
        },
      );
    },

    /**
     * Moves a delivery whose provider failed the message to the next entry of the channel list,
     * as a new send of the same code: only from the attempt it was decided from.
     */
    switchChannel(record: OtpRecord, to: ChannelSwitch): Promise<OtpRecord | null> {
      const { numberPrefix, at, ...fields } = to;
      return otps.findOneAndUpdate(
        { _id: record._id, deliveryAttempts: record.deliveryAttempts, delivery: "sending" },
        {
          $set: { ...fields, ...(numberPrefix === undefined ? {} : { numberPrefix }), deliveryStartedAt: at },
          ...(numberPrefix === undefined ? { $unset: { numberPrefix: true as const } } : {}),
          $inc: { deliveryAttempts: 1 },
        },
      );
    },

    /**
     * Claims a record whose delivery is unsettled for one reconciling resend: only the caller
     * that moves it from exactly what it read gets it, so two retries never both resend.
     */
    claimRedelivery(record: OtpRecord, now: Date): Promise<OtpRecord | null> {
      return otps.findOneAndUpdate(
        { _id: record._id, delivery: record.delivery, deliveryAttempts: record.deliveryAttempts },
        { $set: { delivery: "sending" satisfies DeliveryState, deliveryStartedAt: now }, $inc: { deliveryAttempts: 1 } },
      );
    },

    /** Marks a correct code verified, recording the request's answer; null if it no longer could be. */
    markVerified(otpId: string, requestDigest: string, now: Date): Promise<OtpRecord | null> {
      return otps.findOneAndUpdate(
        { _id: otpId, ...verifiable(now), [`verifications.${requestDigest}`]: { $exists: false } },
        { $set: { state: "verified", verifiedAt: now, [`verifications.${requestDigest}`]: true } },
      );
    },

    /**
     * Counts one wrong code, as a compare-and-set on the attempts it was decided from: of
     * concurrent wrong guesses exactly one moves the count from n to n + 1, the others re-read.
     * The one that reaches MAX_WRONG_ATTEMPTS locks the code in the same write.
     */
    recordWrongAttempt(otpId: string, requestDigest: string, attemptsBefore: number, now: Date): Promise<OtpRecord | null> {
      const attempts = attemptsBefore + 1;
      return otps.findOneAndUpdate(
        { _id: otpId, ...verifiable(now), attempts: attemptsBefore, [`verifications.${requestDigest}`]: { $exists: false } },
        {
          $set: {
            attempts,
            ...(attempts >= MAX_WRONG_ATTEMPTS ? { state: "locked" } : {}),
            [`verifications.${requestDigest}`]: false,
          },
        },
      );
    },
  };
}

export type OtpsRepository = ReturnType<typeof createOtpsRepository>;
