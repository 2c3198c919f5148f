import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  GenerateOtpResponseSchema,
  GetOtpStatusResponseSchema,
  OtpChannelAttemptSchema,
  OtpChannelOutcomeSchema,
  OtpChannelSchema,
  OtpStatusSchema,
  VerifyOtpResponseSchema,
  type GenerateOtpResponse,
  type GetOtpStatusResponse,
  type OtpChannel,
  type OtpChannelAttempt,
  type OtpStatus,
  type VerifyOtpResponse,
} from "@bayad/proto";
import { enumToTextOrNull, textToEnum, type Environment } from "@bayad/kit";
import type { OtpChannelName } from "../recipients/recipient.js";
import type { MessageLocale } from "@bayad/messaging";
import { publicOutcome, type ChannelAttempt } from "./channel-attempts.js";

/** The published limit: the 5th wrong code locks the OTP. */
export const MAX_WRONG_ATTEMPTS = 5;

/** What is stored of the status; expired and delivery_failed are derived (see statusAt). */
export type StoredOtpState = "pending" | "verified" | "locked";
export type OtpStatusName = "pending" | "verified" | "expired" | "locked" | "delivery_failed";

/**
 * Where the delivery stands. `sending`: the record is written and a send is (or was, if the
 * process died) under way since `deliveryStartedAt`. `uncertain`: the provider may have taken
 * the message; a retry with the same Idempotency-Key reconciles it.
 */
export type DeliveryState = "sending" | "sent" | "uncertain" | "failed";

/** An OTP as stored in the `otps` collection. Neither the code nor the recipient is here in clear. */
export interface OtpRecord {
  _id: string;
  projectId: string;
  environment: Environment;
  /** The generate request's Idempotency-Key: unique per project and environment. */
  idempotencyKey: string;
  channel: OtpChannelName;
  /** The masked destination, e.g. `+63*******4567`. */
  target: string;
  /** Keyed hash of the normalized recipient: the per-recipient limits count by it. */
  recipientHash: string;
  /**
   * Every entry of the request's channel list (one for a request naming recipient and channel),
   * in order, with what became of it; channel, target, recipientHash and numberPrefix above are
   * the entry in use. Absent on codes made before channel fallback: that one channel.
   */
  channels?: ChannelAttempt[];
  /** An SMS code's number prefix (fraud/number-prefix.ts): its verification is tallied under it. */
  numberPrefix?: string;
  /** HMAC-SHA256(OTP_HASH_SECRET, otpId:code). */
  codeHash: string;
  digits: number;
  ttlSeconds: number;
  /** The message's language; absent on codes made before locales: en. */
  locale?: MessageLocale;
  state: StoredOtpState;
  /** Wrong codes counted so far (at most MAX_WRONG_ATTEMPTS). */
  attempts: number;
  /**
   * The verify requests that changed this OTP, by the digest of their Idempotency-Key, with
   * the answer they got: a retried verify replays it instead of counting again.
   */
  verifications: Record<string, boolean>;
  delivery: DeliveryState;
  /** Sends started so far: 1, one more for a reconciling resend and one more per channel fallen back to. */
  deliveryAttempts: number;
  deliveryStartedAt: Date;
  /** Why a failed delivery failed, safe to show (never the recipient). */
  deliveryFailure?: string;
  /** The message sealed for a resend, present only while the delivery is not settled. */
  sealedMessage?: string;
  createdAt: Date;
  expiresAt: Date;
  verifiedAt?: Date;
  /**
   * When the record may go: 7 days (the Idempotency-Key replay window) after expiry. Expired
   * codes need no sweeper, their status is computed from expiresAt; the TTL index on this field
   * only clears old records away.
   */
  purgeAt: Date;
}

/**
 * The status as of `now`. A code is expired from expiresAt on even though nothing writes that
 * (no sweeper needed). Verified and locked are final; a failed delivery outranks expiry because
 * it says more about why the code never worked.
 */
export function statusAt(record: OtpRecord, now: Date): OtpStatusName {
  if (record.state === "verified" || record.state === "locked") return record.state;
  if (record.delivery === "failed") return "delivery_failed";
  if (now.getTime() >= record.expiresAt.getTime()) return "expired";
  return "pending";
}

/** null for UNSPECIFIED or a channel this service does not deliver to: the request named no known channel. */
export function channelFromProto(channel: OtpChannel): OtpChannelName | null {
  const name = enumToTextOrNull(OtpChannelSchema, channel);
  return name === "sms" || name === "email" ? name : null;
}

export function channelToProto(channel: OtpChannelName): OtpChannel {
  return textToEnum(OtpChannelSchema, channel);
}

function statusToProto(status: OtpStatusName): OtpStatus {
  return textToEnum(OtpStatusSchema, status);
}

/** The record's channel list (the one channel it used, for a record made before lists). */
export function channelAttemptsOf(record: OtpRecord): ChannelAttempt[] {
  return record.channels ?? [{ channel: record.channel, target: record.target, recipientHash: record.recipientHash, outcome: "used" }];
}

function channelAttemptsToProto(record: OtpRecord): OtpChannelAttempt[] {
  return channelAttemptsOf(record).map((attempt) =>
    create(OtpChannelAttemptSchema, {
      channel: channelToProto(attempt.channel),
      target: attempt.target,
      outcome: textToEnum(OtpChannelOutcomeSchema, publicOutcome(attempt, record.delivery)),
      code: attempt.code ?? "",
      reason: attempt.reason ?? "",
    }),
  );
}

/** `recipient` is the masked target too: the full destination never leaves the service. */
export function generateResponse(record: OtpRecord): GenerateOtpResponse {
  return create(GenerateOtpResponseSchema, {
    otpId: record._id,
    expiresAt: timestampFromDate(record.expiresAt),
    channel: channelToProto(record.channel),
    recipient: record.target,
    target: record.target,
    channels: channelAttemptsToProto(record),
  });
}

export function verifyResponse(record: OtpRecord, verified: boolean): VerifyOtpResponse {
  return create(VerifyOtpResponseSchema, {
    verified,
    otpId: record._id,
    target: record.target,
    channel: channelToProto(record.channel),
  });
}

export function statusResponse(record: OtpRecord, now: Date): GetOtpStatusResponse {
  return create(GetOtpStatusResponseSchema, {
    otpId: record._id,
    status: statusToProto(statusAt(record, now)),
    target: record.target,
    channel: channelToProto(record.channel),
    expiresAt: timestampFromDate(record.expiresAt),
    channels: channelAttemptsToProto(record),
  });
}
