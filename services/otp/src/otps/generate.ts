import { AppError, keyedDigest, newId, type CallerContext } from "@bayad/kit";
import { createOnce } from "@bayad/idempotency";
import { generateCode, hashCode } from "../codes/code-hash.js";
import { sealMessage } from "../codes/sealed-message.js";
import { maskRecipient } from "../recipients/masking.js";
import type { MessageLocale } from "@bayad/messaging";
import { readRecipient, type OtpChannelName } from "../recipients/recipient.js";
import { checkSmsCountry } from "../settings/country-permissions.js";
import { deliver, reconcileDelivery } from "./delivery.js";
import { fraudFields } from "../fraud/fraud-signals.js";
import type { OtpDeps } from "./otp-deps.js";
import type { OtpRecord } from "./otp.js";

export interface GenerateOtpInput {
  recipient: string;
  /** null when the request named no known channel. */
  channel: OtpChannelName | null;
  /** 0 means the default, 6. */
  digits: number;
  /** 0 means the default, 300. */
  ttlSeconds: number;
  /** The requesting client's address (the gateway's reading); empty when unknown. */
  clientAddress?: string;
  /** The message's language; absent or empty means en. */
  locale?: string;
}

const DEFAULT_DIGITS = 6;
const DEFAULT_TTL_SECONDS = 300;

/**
 * Generates a code, stores it (hashed) and sends it. The record is written before the send,
 * with delivery "sending", so that a crash during the send leaves a trace a retry can
 * reconcile. A request whose Idempotency-Key already has an OTP sends nothing new: it gets
 * that OTP's outcome (see reconcileDelivery).
 */
export async function generateOtp(
  deps: OtpDeps,
  caller: CallerContext & { idempotencyKey: string },
  input: GenerateOtpInput,
): Promise<OtpRecord> {
  const request = validate(input);
  await checkPermitted(deps, caller, request);
  const recipientHash = keyedDigest(deps.secret, "recipient", request.recipient);

  type Stored = { record: OtpRecord; created: false } | { record: OtpRecord; created: true; code: string };
  const stored = await createOnce<Stored>(deps.keys, caller, "generateOtp", {
    existing: async (otpId) => {
      const existing = await deps.repository.findById(caller, otpId);
      return existing && { record: existing, created: false };
    },
    // Concurrent requests with one key are all charged before one of them wins the insert; a
    // refused one (429) answers with the winner's OTP instead, as createOnce does for any failure.
    create: async (claim) => {
      await deps.fraud.admitGenerate(caller, { ...request, recipientHash, clientAddress: input.clientAddress ?? "" });
      const now = deps.now();
      const otpId = newId("otp");
      const code = generateCode(request.digits);
      const expiresAt = new Date(now.getTime() + request.ttlSeconds * 1000);
      const record: OtpRecord = {
        _id: otpId,
        projectId: caller.projectId,
        environment: caller.environment,
        idempotencyKey: caller.idempotencyKey,
        channel: request.channel,
        target: maskRecipient(request.channel, request.recipient),
        recipientHash,
        ...fraudFields(request),
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
        sealedMessage: sealMessage(deps.sealingKeys, otpId, { recipient: request.recipient, code }),
        createdAt: now,
        expiresAt,
        // Verify's answers are replayed from the record for the key window after its last chance.
        purgeAt: new Date(expiresAt.getTime() + deps.keys.windowMs),
      };
      await deps.store.transaction(async (session) => {
        await deps.repository.insert(record, session);
        await claim(session, otpId);
      });
      return { record, created: true, code };
    },
  });
  if (!stored.created) return replay(deps, stored.record, request, recipientHash);
  const { record } = stored;
  await deps.fraud.generated(record);
  deps.logger.info({ otpId: record._id, channel: record.channel, target: record.target, digits: record.digits }, "otp generated");
  return deliver(deps, record, { recipient: request.recipient, code: stored.code }, { reconciling: false });
}

interface ValidRequest {
  recipient: string;
  /** The SMS number's country (ISO 3166 alpha-2, "001" for none); absent for e-mail. */
  country?: string;
  channel: OtpChannelName;
  digits: number;
  ttlSeconds: number;
  locale: MessageLocale;
}

/**
 * The project's rules for where codes may go, checked before anything is charged, written or
 * sent: a refused request costs the merchant nothing.
 */
async function checkPermitted(deps: OtpDeps, caller: CallerContext, request: ValidRequest): Promise<void> {
  if (request.channel !== "sms" || request.country === undefined) return;
  checkSmsCountry(await deps.settings.get(caller.projectId, caller.environment), request.country, deps.metrics);
}

/** The gateway validates first; this keeps the service's own invariants whoever calls it. */
function validate(input: GenerateOtpInput): ValidRequest {
  const problems: string[] = [];
  if (input.channel === null) problems.push("channel: must be sms or email");
  const digits = input.digits || DEFAULT_DIGITS;
  if (!Number.isInteger(digits) || digits < 6 || digits > 10) problems.push("digits: must be from 6 to 10");
  const ttlSeconds = input.ttlSeconds || DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 60 || ttlSeconds > 1800) problems.push("ttlSeconds: must be from 60 to 1800");
  if (input.recipient.trim() === "") problems.push("recipient: is required");
  const locale = input.locale || "en";
  if (locale !== "en" && locale !== "fil") problems.push("locale: must be en or fil");
  if (problems.length > 0 || input.channel === null) {
    throw new AppError("VALIDATION_FAILED", "The request is invalid.", { details: problems });
  }
  return { channel: input.channel, ...readRecipient(input.channel, input.recipient), digits, ttlSeconds, locale: locale as MessageLocale };
}

/** The same key with a different request is refused; with the same request it gets the OTP's outcome. */
async function replay(deps: OtpDeps, existing: OtpRecord, request: ValidRequest, recipientHash: string): Promise<OtpRecord> {
  const same =
    existing.channel === request.channel &&
    existing.recipientHash === recipientHash &&
    existing.digits === request.digits &&
    existing.ttlSeconds === request.ttlSeconds;
  if (!same) throw new AppError("IDEMPOTENCY_KEY_PAYLOAD_MISMATCH");
  return reconcileDelivery(deps, existing);
}
