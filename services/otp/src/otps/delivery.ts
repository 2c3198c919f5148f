import { AppError } from "@bayad/kit";
import { DeliveryFailedError, describeSendError } from "@bayad/messaging";
import { openMessage, sealMessage, type PendingMessage } from "../codes/sealed-message.js";
import { fraudFields } from "../fraud/fraud-signals.js";
import { noChannelCould, refusalOf, type ChannelAttempt } from "./channel-attempts.js";
import { composeMessage } from "./message-text.js";
import type { OtpDeps } from "./otp-deps.js";
import { channelAttemptsOf, statusAt, type OtpRecord } from "./otp.js";
import type { DeliveryOutcome } from "./otps-repository.js";

/**
 * Sends the record's message (the record is already written, delivery "sending") and records
 * the outcome. Resolves with the record once the provider took the message. Otherwise throws:
 * OTP_DELIVERY_FAILED when it certainly was not taken (the status becomes delivery_failed and
 * the code never verifies), IDEMPOTENCY_OUTCOME_UNKNOWN when it may have been (the gateway
 * keeps the key blocked and re-runs the request, which reconciles, see reconcileDelivery).
 *
 * `counted`: the fraud signals already counted this channel's send (an uncertain first send
 * counts, as the message may have gone). A send is counted once per channel, when the provider
 * took it or may have: never one it certainly refused, so a provider outage never makes a range
 * look pumped, and a channel fallen back to is counted for itself.
 *
 * `reconciling`: this is the one resend of a delivery whose outcome was uncertain. If that is
 * uncertain too we stop and settle the delivery as failed rather than leave the key blocked
 * and resend again and again; the caller then asks for a new code.
 */
export async function deliver(
  deps: OtpDeps,
  record: OtpRecord,
  message: PendingMessage,
  options: { reconciling: boolean; counted: boolean },
): Promise<OtpRecord> {
  let current = record;
  let pending = message;
  let { reconciling, counted } = options;
  const count = async () => {
    if (!counted) await deps.fraud.generated(current);
    counted = true;
  };
  for (;;) {
    const log = { otpId: current._id, channel: current.channel, target: current.target, attempt: current.deliveryAttempts };
    try {
      await send(deps, current, pending.recipient, pending.code);
    } catch (error) {
      if (error instanceof DeliveryFailedError) {
        deps.logger.warn({ ...log, send: describeSendError(error) }, "otp delivery failed");
        const channels = failedChannels(current, error.reason);
        const next = await fallBack(deps, current, pending, channels);
        if (next === "superseded") throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS");
        if (next !== undefined) {
          deps.logger.info({ otpId: next.record._id, channel: next.record.channel, target: next.record.target }, "otp falls back to the next channel");
          ({ record: current, message: pending } = next);
          // A first send over the new channel: not a resend, and not counted yet.
          reconciling = false;
          counted = false;
          continue;
        }
        throw await failDelivery(deps, current, error.reason, { channels, retryAfterSeconds: error.retryAfterSeconds });
      }
      if (reconciling) {
        deps.logger.warn({ ...log, send: describeSendError(error) }, "otp resend uncertain again; settled as failed");
        throw await failDelivery(deps, current, "the delivery could not be confirmed");
      }
      deps.logger.warn({ ...log, send: describeSendError(error) }, "otp delivery uncertain");
      await count();
      await settle(deps, current, { delivery: "uncertain" });
      throw new AppError(
        "IDEMPOTENCY_OUTCOME_UNKNOWN",
        "Whether the code was delivered is not known yet; retry with the same Idempotency-Key to reconcile.",
      );
    }
    deps.logger.info(log, "otp delivered");
    await count();
    return (await settle(deps, current, { delivery: "sent" })) ?? { ...current, delivery: "sent" };
  }
}

/** Hands the record's message to its channel's sender, in its locale and the project's template as they are now. */
async function send(deps: OtpDeps, record: OtpRecord, recipient: string, code: string): Promise<void> {
  const locale = record.locale ?? "en";
  const settings = await deps.settings.get(record.projectId, record.environment);
  const { subject, body } = composeMessage(code, record.ttlSeconds, { appName: settings.appName, locale, template: settings.templates[locale] });
  await deps.senders[record.channel].send({
    kind: "otp",
    channel: record.channel,
    recipient,
    subject,
    body,
    locale,
    projectId: record.projectId,
    resourceId: record._id,
  });
}

/**
 * After a provider failed the message: the next entry of the channel list the limits and fraud
 * signals admit (the request-wide limits were charged for the first), made the record's channel
 * as a new send of the same code. undefined when no entry is left; "superseded" when another
 * attempt moved the record first. `channels` (the list with the failed entry marked) gets the
 * refusals found on the way. The entry's limits are charged before the switch: if a reconciling
 * retry took the record meanwhile (a send longer than the lease), that charge is spent for
 * nothing, a limit counting one code too many rather than one too few.
 */
async function fallBack(
  deps: OtpDeps,
  record: OtpRecord,
  message: PendingMessage,
  channels: ChannelAttempt[],
): Promise<{ record: OtpRecord; message: PendingMessage } | "superseded" | undefined> {
  const queue = [...(message.next ?? [])];
  for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
    const attempt = channels[entry.index];
    try {
      await deps.fraud.admitGenerate(record, { channel: attempt.channel, recipient: entry.recipient, recipientHash: attempt.recipientHash, clientAddress: "", fallback: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      channels[entry.index] = { ...attempt, outcome: "refused", ...refusalOf(error) };
      continue;
    }
    channels[entry.index] = { ...attempt, outcome: "used" };
    const next: PendingMessage = { recipient: entry.recipient, code: message.code, ...(queue.length > 0 ? { next: queue } : {}) };
    const switched = await deps.repository.switchChannel(record, {
      channel: attempt.channel,
      target: attempt.target,
      recipientHash: attempt.recipientHash,
      ...fraudFields({ channel: attempt.channel, recipient: entry.recipient }),
      channels,
      sealedMessage: sealMessage(deps.sealingKeys, record._id, next),
      at: deps.now(),
    });
    return switched ? { record: switched, message: next } : "superseded";
  }
  return undefined;
}

/** The record's channel list with the entry in use marked failed for `reason`. */
function failedChannels(record: OtpRecord, reason: string): ChannelAttempt[] {
  return channelAttemptsOf(record).map((attempt) => (attempt.outcome === "used" ? { ...attempt, outcome: "failed", code: "OTP_DELIVERY_FAILED", reason } : { ...attempt }));
}

/**
 * A generate retried with the Idempotency-Key of an existing OTP: answers with what that
 * request came to, and settles a delivery left uncertain (or left "sending" by a process that
 * died) by resending the same message once. At worst the recipient gets the same message, with
 * the same code, twice. Nothing else is ever sent for a replayed key.
 */
export async function reconcileDelivery(deps: OtpDeps, record: OtpRecord): Promise<OtpRecord> {
  const now = deps.now();
  if (record.delivery === "sent") return record;
  if (record.delivery === "failed") throw deliveryFailed(record.deliveryFailure ?? "the code could not be delivered", undefined, record.channels);
  if (record.delivery === "sending" && now.getTime() - record.deliveryStartedAt.getTime() < deps.sendingLeaseMs) {
    throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS");
  }

  const claimed = await deps.repository.claimRedelivery(record, now);
  if (!claimed) throw new AppError("IDEMPOTENCY_KEY_IN_PROGRESS");
  const log = { otpId: claimed._id, channel: claimed.channel, target: claimed.target, attempt: claimed.deliveryAttempts };

  // A verified code evidently arrived; a locked or expired one is not worth sending again.
  if (claimed.state === "verified") {
    deps.logger.info(log, "otp delivery reconciled: the code was verified");
    return (await settle(deps, claimed, { delivery: "sent" })) ?? claimed;
  }
  let message: PendingMessage | null = null;
  // The claim set delivery back to "sending", so pending here means neither expired nor locked.
  if (statusAt(claimed, now) === "pending" && claimed.sealedMessage) {
    try {
      message = openMessage(deps.sealingKeys, claimed._id, claimed.sealedMessage);
    } catch {
      // Sealed under a key no longer in OTP_HASH_SECRETS: it cannot be resent.
      message = null;
    }
  }
  if (!message) {
    deps.logger.warn(log, "otp delivery reconciled as failed without a resend");
    throw await failDelivery(deps, claimed, "the code can no longer be used and was not sent again");
  }
  deps.logger.info(log, "otp delivery uncertain: resending once");
  // An uncertain send was counted; one that a crash interrupted ("sending") was not.
  return deliver(deps, claimed, message, { reconciling: true, counted: record.delivery === "uncertain" });
}

/**
 * Settles the record's delivery as failed for `reason` (its channel list, when it has one, with
 * the entry in use failed, or as given) and answers the error to throw.
 */
async function failDelivery(
  deps: OtpDeps,
  record: OtpRecord,
  reason: string,
  options: { channels?: ChannelAttempt[]; retryAfterSeconds?: number } = {},
): Promise<AppError> {
  const channels = options.channels ?? failedChannels(record, reason);
  await settle(deps, record, { delivery: "failed", failure: reason, ...(record.channels ? { channels } : {}) });
  return deliveryFailed(reason, options.retryAfterSeconds, channels);
}

async function settle(deps: OtpDeps, record: OtpRecord, outcome: DeliveryOutcome): Promise<OtpRecord | null> {
  const settled = await deps.repository.settleDelivery(record._id, record.deliveryAttempts, outcome);
  if (!settled) deps.logger.warn({ otpId: record._id, attempt: record.deliveryAttempts }, "otp delivery outcome superseded by a later attempt");
  return settled;
}

/** OTP_DELIVERY_FAILED; with a channel list of more than one entry, its details name every entry's reason. */
function deliveryFailed(reason: string, retryAfterSeconds?: number, channels?: ChannelAttempt[]): AppError {
  const error = new AppError("OTP_DELIVERY_FAILED", "The code could not be delivered to the recipient.", {
    details: [`recipient: ${reason}`],
    ...(retryAfterSeconds ? { headers: { "Retry-After": String(retryAfterSeconds) } } : {}),
  });
  return channels ? noChannelCould(channels, error) : error;
}
