import { AppError } from "@bayad/kit";
import type { OtpChannelName } from "../recipients/recipient.js";
import type { DeliveryState } from "./otp.js";

/*
 * Channel fallback: a generate may name an ordered list of channels with their recipients
 * (SMS, then e-mail). The code is one code; it goes over the first channel the project's rules
 * admit, and when that channel's provider fails the message, over the next. The record keeps
 * what became of every entry, and its top-level channel and target are the one in use.
 */

/**
 * What became of one entry, as stored. `used`: it carries (or carried) the code, and the
 * record's delivery says how far it got; `failed`: its provider failed the message and the next
 * entry was used; `refused`: the rules refused it before any send; `not_tried`: not reached.
 */
export type StoredChannelOutcome = "used" | "failed" | "refused" | "not_tried";

/** The public reading of an entry: `used` becomes `sent` or `pending` (or `failed`) from the delivery. */
export type ChannelOutcome = "sent" | "pending" | "failed" | "refused" | "not_tried";

export interface ChannelAttempt {
  channel: OtpChannelName;
  /** The masked destination (maskRecipient), as responses show it. */
  target: string;
  /** Keyed hash of the recipient (normalised when it could be read): a replayed request is compared by it. */
  recipientHash: string;
  outcome: StoredChannelOutcome;
  /** For refused and failed entries: the error code that refused it and a reason safe to show. */
  code?: string;
  reason?: string;
}

/**
 * Why an entry was refused or failed, from the error that said so: its code and its first
 * detail, without the field name. A number range the fraud signals name (`+63917`) is left out:
 * with the masked target it would show all but 3 digits of the number.
 */
export function refusalOf(error: AppError): { code: string; reason: string } {
  const detail = error.details?.[0];
  const reason = detail === undefined ? error.message : detail.replace(/^[A-Za-z.[\]0-9]+: /, "");
  return { code: error.code, reason: reason.replace(/numbers starting \+\d+/g, "numbers of its range") };
}

export function publicOutcome(attempt: ChannelAttempt, delivery: DeliveryState): ChannelOutcome {
  if (attempt.outcome !== "used") return attempt.outcome;
  if (delivery === "sent") return "sent";
  return delivery === "failed" ? "failed" : "pending";
}

/**
 * The answer when no entry could carry the code. One channel (named either way) gets that
 * channel's own error unchanged. A list of more gets the first entry's error (its code, status
 * and Retry-After: the preferred channel's reason), its details naming every entry's reason.
 */
export function noChannelCould(attempts: ChannelAttempt[], first: AppError): AppError {
  if (attempts.length <= 1) return first;
  const details = attempts.map((attempt, index) => `channels[${index}].recipient: ${attempt.channel} ${attempt.outcome}: ${attempt.reason ?? "not tried"}`);
  const message = first.code === "OTP_DELIVERY_FAILED" ? first.message : `No channel of the list could carry the code. ${first.message}`;
  return new AppError(first.code, message, { headers: first.headers, details });
}
