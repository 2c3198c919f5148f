import { AppError, keyedDigest, newId, type CallerContext } from "@bayad/kit";
import { createOnce } from "@bayad/idempotency";
import type { MessageLocale } from "@bayad/messaging";
import { generateCode, hashCode } from "../codes/code-hash.js";
import { sealMessage, type PendingMessage } from "../codes/sealed-message.js";
import { fraudFields, RequestLimitRefusal } from "../fraud/fraud-signals.js";
import { maskRecipient, maskUnreadable } from "../recipients/masking.js";
import { readRecipient, type OtpChannelName } from "../recipients/recipient.js";
import { smsCountryRefusal } from "../settings/country-permissions.js";
import type { OtpSettings } from "../settings/otp-settings.js";
import { noChannelCould, refusalOf, type ChannelAttempt } from "./channel-attempts.js";
import { deliver, reconcileDelivery } from "./delivery.js";
import type { OtpDeps } from "./otp-deps.js";
import { channelAttemptsOf, type OtpRecord } from "./otp.js";

export interface GenerateOtpInput {
  recipient: string;
  /** null when the request named no known channel. */
  channel: OtpChannelName | null;
  /**
   * Instead of recipient and channel: the channels to try in order (channel null when the entry
   * named no known channel). Empty or absent: the request named recipient and channel.
   */
  channels?: { channel: OtpChannelName | null; recipient: string }[];
  /** 0 means the default, 6. */
  digits: number;
  /** 0 means the default, 300. */
  ttlSeconds: number;
  /** The end user's address as the caller gave it (clientIp); empty when not given: not limited per client then. */
  clientAddress?: string;
  /** The message's language; absent or empty means en. */
  locale?: string;
}

const DEFAULT_DIGITS = 6;
const DEFAULT_TTL_SECONDS = 300;
/** The longest channel list: each channel once, or a second number or address for one of them. */
export const MAX_CHANNELS = 3;

/**
 * Generates a code, stores it (hashed) and sends it. The record is written before the send,
 * with delivery "sending", so that a crash during the send leaves a trace a retry can
 * reconcile. A request whose Idempotency-Key already has an OTP sends nothing new: it gets
 * that OTP's outcome (see reconcileDelivery).
 *
 * With a channel list, the first entry the project's rules admit carries the code (rules first,
 * for every entry, before anything is charged; then the limits and fraud signals, entry by
 * entry); deliver falls back to the next when a provider fails the message.
 */
export async function generateOtp(
  deps: OtpDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: GenerateOtpInput,
): Promise<OtpRecord> {
  const request = validate(input);
  const settings = await deps.settings.get(caller.projectId, caller.environment);
  const candidates = request.entries.map((entry) => screen(deps, settings, entry));

  type Stored = { record: OtpRecord; created: false } | { record: OtpRecord; created: true; message: PendingMessage };
  const stored = await createOnce<Stored>(deps.keys, caller, "generateOtp", {
    existing: async (otpId) => {
      const existing = await deps.repository.findById(caller, otpId);
      return existing && { record: existing, created: false };
    },
    // Concurrent requests with one key are all charged before one of them wins the insert; a
    // refused one (429) answers with the winner's OTP instead, as createOnce does for any failure.
    create: async (claim) => {
      // Only a request the key has not seen is refused or counted: a replay answers what its key made.
      countRuleRefusals(deps, caller, candidates);
      const chosen = await admitFirst(deps, caller, candidates, input.clientAddress ?? "");
      if (chosen === undefined) throw noChannelCould(candidates.map(attemptOf), firstRefusalOf(candidates));
      const now = deps.now();
      const otpId = newId("otp");
      const code = generateCode(request.digits);
      const expiresAt = new Date(now.getTime() + request.ttlSeconds * 1000);
      const used = candidates[chosen];
      const message: PendingMessage = { recipient: used.recipient, code, ...nextOf(candidates, chosen) };
      const record: OtpRecord = {
        _id: otpId,
        projectId: caller.projectId,
        environment: caller.environment,
        idempotencyKey: caller.idempotencyKey,
        channel: used.channel,
        target: used.target,
        recipientHash: used.recipientHash,
        ...fraudFields(used),
        channels: candidates.map((candidate, index) => (index === chosen ? { ...attemptOf(candidate), outcome: "used" } : attemptOf(candidate))),
        codeHash: hashCode(deps.secret, otpId, code),
        digits: request.digits,
        ttlSeconds: request.ttlSeconds,
        locale: request.locale,
        state: "pending",
        attempts: 0,
        verifications: {},
        delivery: "sending",
        deliveryAttempts: 1,
        deliveryStartedAt: now,
        sealedMessage: sealMessage(deps.sealingKeys, otpId, message),
        createdAt: now,
        expiresAt,
        // Verify's answers are replayed from the record for the key window after its last chance.
        purgeAt: new Date(expiresAt.getTime() + deps.keys.windowMs),
      };
      await deps.store.transaction(async (session) => {
        await deps.repository.insert(record, session);
        await claim(session, otpId);
      });
      return { record, created: true, message };
    },
  });
  if (!stored.created) return replay(deps, stored.record, request, candidates);
  const { record } = stored;
  deps.logger.info({ otpId: record._id, channel: record.channel, target: record.target, digits: record.digits, channels: record.channels?.length }, "otp generated");
  return deliver(deps, record, stored.message, { reconciling: false, counted: false });
}

interface ValidRequest {
  /** The channels to try, in order (one for a request naming recipient and channel). */
  entries: { channel: OtpChannelName; recipient: string }[];
  digits: number;
  ttlSeconds: number;
  locale: MessageLocale;
}

/** One entry of the list once the project's rules have read it. */
interface Candidate {
  channel: OtpChannelName;
  /** Normalised (E.164 for SMS) when it could be read; as given, trimmed, otherwise. */
  recipient: string;
  recipientHash: string;
  target: string;
  /** Why the rules refuse it (the number cannot receive SMS, its country is not allowed); absent: admissible. */
  refusal?: AppError;
}

/**
 * The project's rules for where codes may go, checked for every entry before anything is
 * charged, written or sent: a refused request costs the merchant nothing.
 */
function screen(deps: OtpDeps, settings: OtpSettings, entry: ValidRequest["entries"][number]): Candidate {
  const { channel } = entry;
  const hashed = (recipient: string) => ({ channel, recipient, recipientHash: keyedDigest(deps.secret, "recipient", recipient) });
  let read: ReturnType<typeof readRecipient>;
  try {
    read = readRecipient(channel, entry.recipient);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const recipient = entry.recipient.trim();
    return { ...hashed(recipient), target: maskUnreadable(channel, recipient), refusal: error };
  }
  const refusal = read.country === undefined ? undefined : smsCountryRefusal(settings, read.country);
  return { ...hashed(read.recipient), target: maskRecipient(channel, read.recipient), ...(refusal ? { refusal } : {}) };
}

/** Counts the entries the country permissions refused (the fraud signals count their own refusals). */
function countRuleRefusals(deps: OtpDeps, caller: CallerContext, candidates: Candidate[]): void {
  for (const candidate of candidates) {
    if (candidate.refusal?.code !== "SMS_COUNTRY_NOT_ALLOWED") continue;
    deps.metrics.refused({ project: caller.projectId, environment: caller.environment, channel: candidate.channel, reason: "country_not_allowed" });
  }
}

/**
 * Admits the first candidate the limits and fraud signals let through, recording why the
 * others before it were refused; undefined when none. A refused admission charges nothing. A
 * limit of the whole request (per project, per client) refuses it as it is: no other entry
 * could pass it.
 */
async function admitFirst(deps: OtpDeps, caller: CallerContext, candidates: Candidate[], clientAddress: string): Promise<number | undefined> {
  for (const [index, candidate] of candidates.entries()) {
    if (candidate.refusal) continue;
    try {
      await deps.fraud.admitGenerate(caller, { ...candidate, clientAddress });
      return index;
    } catch (error) {
      if (!(error instanceof AppError) || error instanceof RequestLimitRefusal) throw error;
      candidate.refusal = error;
    }
  }
  return undefined;
}

function firstRefusalOf(candidates: Candidate[]): AppError {
  return candidates.find((candidate) => candidate.refusal)!.refusal!;
}

function attemptOf(candidate: Candidate): ChannelAttempt {
  const attempt: ChannelAttempt = { channel: candidate.channel, target: candidate.target, recipientHash: candidate.recipientHash, outcome: candidate.refusal ? "refused" : "not_tried" };
  return candidate.refusal ? { ...attempt, ...refusalOf(candidate.refusal) } : attempt;
}

/** The admissible entries after `chosen`, for the sealed message: deliver falls back to them. */
function nextOf(candidates: Candidate[], chosen: number): Pick<PendingMessage, "next"> {
  const next = candidates.flatMap((candidate, index) => (index > chosen && !candidate.refusal ? [{ index, recipient: candidate.recipient }] : []));
  return next.length > 0 ? { next } : {};
}

/** The gateway validates first; this keeps the service's own invariants whoever calls it. */
function validate(input: GenerateOtpInput): ValidRequest {
  const problems: string[] = [];
  const listed = (input.channels?.length ?? 0) > 0;
  const entries: ValidRequest["entries"] = [];
  if (listed) {
    if (input.recipient !== "" || input.channel !== null) problems.push("channels: give either channels or recipient and channel, not both");
    if (input.channels!.length > MAX_CHANNELS) problems.push(`channels: at most ${MAX_CHANNELS} entries`);
    input.channels!.forEach((entry, index) => {
      if (entry.channel === null) problems.push(`channels[${index}].channel: must be sms or email`);
      if (entry.recipient.trim() === "") problems.push(`channels[${index}].recipient: is required`);
      if (entry.channel !== null) entries.push({ channel: entry.channel, recipient: entry.recipient });
    });
  } else {
    if (input.channel === null) problems.push("channel: must be sms or email");
    if (input.recipient.trim() === "") problems.push("recipient: is required");
    if (input.channel !== null) entries.push({ channel: input.channel, recipient: input.recipient });
  }
  const digits = input.digits || DEFAULT_DIGITS;
  if (!Number.isInteger(digits) || digits < 6 || digits > 10) problems.push("digits: must be from 6 to 10");
  const ttlSeconds = input.ttlSeconds || DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 60 || ttlSeconds > 1800) problems.push("ttlSeconds: must be from 60 to 1800");
  const locale = input.locale || "en";
  if (locale !== "en" && locale !== "fil") problems.push("locale: must be en or fil");
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: problems });
  return { entries, digits, ttlSeconds, locale: locale as MessageLocale };
}

/** The same key with a different request is refused; with the same request it gets the OTP's outcome. */
async function replay(deps: OtpDeps, existing: OtpRecord, request: ValidRequest, candidates: Candidate[]): Promise<OtpRecord> {
  const stored = channelAttemptsOf(existing);
  const same =
    stored.length === candidates.length &&
    stored.every((attempt, index) => attempt.channel === candidates[index].channel && attempt.recipientHash === candidates[index].recipientHash) &&
    existing.digits === request.digits &&
    existing.ttlSeconds === request.ttlSeconds &&
    (existing.locale ?? "en") === request.locale;
  if (!same) throw new AppError("IDEMPOTENCY_KEY_PAYLOAD_MISMATCH");
  return reconcileDelivery(deps, existing);
}
