import { ConfigError, digestKeyOf, envInt, envKeyRing, envSecret, singleKeyRing, type Env, type KeyRing } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import { readEmailSender, readSmsSender, type EmailSenderConfig, type SmsSenderConfig } from "@bayad/messaging";

export type { EmailSenderConfig, SmsSenderConfig };

/** A sliding-window limit: at most `limit` calls in any `windowSeconds` (@bayad/kit's RateLimitSetting). */
export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

/**
 * Per-recipient limits count per project and environment, so that one project's sends or guesses
 * never use up what another project's user of the same number or address needs. Each has a
 * ceiling across all projects against abuse (many projects at one recipient), counted over the
 * same window and set far above it: above twice the limit, so that no one project, in both its
 * environments, can reach it alone.
 */
export interface OtpLimits {
  /** OTP_GENERATE_RECIPIENT_LIMIT / _WINDOW_SECONDS: 5 per 900 s per project and environment (the published limit). */
  generatePerRecipient: RateLimitSetting;
  /** OTP_GENERATE_RECIPIENT_CEILING: 50 per OTP_GENERATE_RECIPIENT_WINDOW_SECONDS, all projects together. */
  generateRecipientCeiling: RateLimitSetting;
  /** OTP_GENERATE_CALLER_LIMIT / _WINDOW_SECONDS: 60 per 60 s per project and environment. */
  generatePerCaller: RateLimitSetting;
  /** OTP_VERIFY_OTP_LIMIT / _WINDOW_SECONDS: 10 per 60 s per otpId (the published limit). */
  verifyPerOtp: RateLimitSetting;
  /** OTP_VERIFY_RECIPIENT_LIMIT / _WINDOW_SECONDS: 20 per 900 s per recipient, across its codes, per project and environment. */
  verifyPerRecipient: RateLimitSetting;
  /** OTP_VERIFY_RECIPIENT_CEILING: 200 per OTP_VERIFY_RECIPIENT_WINDOW_SECONDS, all projects together. */
  verifyRecipientCeiling: RateLimitSetting;
  /** OTP_VERIFY_CALLER_LIMIT / _WINDOW_SECONDS: 300 per 60 s per project and environment. */
  verifyPerCaller: RateLimitSetting;
  /**
   * OTP_GENERATE_PREFIX_LIMIT / _WINDOW_SECONDS: 30 SMS codes per 600 s to one number prefix (the
   * country code and the next 3 digits, fraud/number-prefix.ts) per project and environment: a
   * burst towards one range is SMS pumping's signature.
   */
  generatePerPrefix: RateLimitSetting;
  /** OTP_GENERATE_CLIENT_LIMIT / _WINDOW_SECONDS: 30 codes per 60 s from one client address per project and environment. */
  generatePerClient: RateLimitSetting;
}

/**
 * When SMS codes to a number prefix go unverified (fraud/suspicious-prefixes.ts): once a prefix
 * had at least `minGenerated` SMS codes in `windowSeconds` and fewer than `minVerifiedPercent` of
 * them were verified, new SMS codes to it are refused for `cooldownSeconds`.
 */
export interface SuspiciousTrafficSettings {
  /** OTP_SUSPICIOUS_MIN_GENERATED (default 20). */
  minGenerated: number;
  /** OTP_SUSPICIOUS_MIN_VERIFIED_PERCENT (default 20). */
  minVerifiedPercent: number;
  /** OTP_SUSPICIOUS_WINDOW_SECONDS (default 3600). */
  windowSeconds: number;
  /** OTP_SUSPICIOUS_COOLDOWN_SECONDS (default 3600). */
  cooldownSeconds: number;
}

export interface OtpConfig {
  /**
   * OTP_HASH_SECRETS, or OTP_HASH_SECRET (every key at least 32 characters): the ring whose newest
   * key seals messages awaiting a resend (any of its keys opens them) and whose first key keys the
   * code and recipient hashes (`hashSecret`). Unset, a random key is made per process, which is
   * fine for one process; replicas must share one, or a code issued by one would not verify on
   * another.
   */
  hashSecrets: KeyRing;
  /** The ring's first key: keys the code and recipient hashes. */
  hashSecret: string;
  hashSecretGenerated: boolean;
  limits: OtpLimits;
  suspicious: SuspiciousTrafficSettings;
  /** OTP_EMAIL_SENDER: `dev` (default, the development outbox) or `smtp`. */
  email: EmailSenderConfig;
  /** OTP_SMS_SENDER: `dev` (default, the development outbox) or `semaphore`. */
  sms: SmsSenderConfig;
  /**
   * OTP_SEND_TIMEOUT_MS (default 8000, 1000–60000): the longest one delivery may take. Kept
   * below the gateway's RPC_TIMEOUT_MS (10 s by default) so that generate answers with a
   * settled outcome before the gateway stops waiting.
   */
  sendTimeoutMs: number;
  /** OTP_IDEMPOTENCY_WINDOW_SECONDS (604800, the gateway's 7 days): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
}

/** The OTP service's environment; a bad or missing value throws a one-line ConfigError. */
export function readOtpConfig(env: Env): OtpConfig {
  const names = { single: "OTP_HASH_SECRET", ring: "OTP_HASH_SECRETS" };
  const configured = envKeyRing(env, names, 32);
  const hashSecrets = configured ?? singleKeyRing(envSecret(env, names.single, 32).value);
  const sendTimeoutMs = envInt(env, "OTP_SEND_TIMEOUT_MS", 8_000, { min: 1_000, max: 60_000 });
  return {
    hashSecrets,
    hashSecret: digestKeyOf(hashSecrets),
    hashSecretGenerated: configured === undefined,
    limits: readLimits(env),
    suspicious: readSuspicious(env),
    email: readEmailSender(env, "OTP_EMAIL_SENDER", sendTimeoutMs),
    sms: readSmsSender(env, "OTP_SMS_SENDER", sendTimeoutMs),
    sendTimeoutMs,
    idempotencyWindowMs: readIdempotencyWindowMs(env, "otp"),
  };
}

function readLimits(env: Env): OtpLimits {
  const generatePerRecipient = readLimit(env, "OTP_GENERATE_RECIPIENT", 5, 900);
  const verifyPerRecipient = readLimit(env, "OTP_VERIFY_RECIPIENT", 20, 900);
  return {
    generatePerRecipient,
    generateRecipientCeiling: readCeiling(env, "OTP_GENERATE_RECIPIENT", generatePerRecipient),
    generatePerCaller: readLimit(env, "OTP_GENERATE_CALLER", 60, 60),
    verifyPerOtp: readLimit(env, "OTP_VERIFY_OTP", 10, 60),
    verifyPerRecipient,
    verifyRecipientCeiling: readCeiling(env, "OTP_VERIFY_RECIPIENT", verifyPerRecipient),
    verifyPerCaller: readLimit(env, "OTP_VERIFY_CALLER", 300, 60),
    generatePerPrefix: readLimit(env, "OTP_GENERATE_PREFIX", 30, 600),
    generatePerClient: readLimit(env, "OTP_GENERATE_CLIENT", 30, 60),
  };
}

function readSuspicious(env: Env): SuspiciousTrafficSettings {
  return {
    minGenerated: envInt(env, "OTP_SUSPICIOUS_MIN_GENERATED", 20, { min: 1, max: 1_000_000 }),
    minVerifiedPercent: envInt(env, "OTP_SUSPICIOUS_MIN_VERIFIED_PERCENT", 20, { min: 0, max: 100 }),
    windowSeconds: envInt(env, "OTP_SUSPICIOUS_WINDOW_SECONDS", 3_600, { min: 60, max: 7 * 86_400 }),
    cooldownSeconds: envInt(env, "OTP_SUSPICIOUS_COOLDOWN_SECONDS", 3_600, { min: 1, max: 7 * 86_400 }),
  };
}

/** `<prefix>_CEILING`, default ten times the per-project limit, over its window. */
function readCeiling(env: Env, prefix: string, perProject: RateLimitSetting): RateLimitSetting {
  const name = `${prefix}_CEILING`;
  const limit = envInt(env, name, 10 * perProject.limit, { min: 1, max: 10_000_000 });
  if (limit <= 2 * perProject.limit) {
    throw new ConfigError(name, `must be more than twice ${prefix}_LIMIT (${perProject.limit}), so that no one project can reach it, got "${limit}"`);
  }
  return { limit, windowSeconds: perProject.windowSeconds };
}

function readLimit(env: Env, prefix: string, limit: number, windowSeconds: number): RateLimitSetting {
  return {
    limit: envInt(env, `${prefix}_LIMIT`, limit, { min: 1, max: 1_000_000 }),
    windowSeconds: envInt(env, `${prefix}_WINDOW_SECONDS`, windowSeconds, { min: 1, max: 86_400 }),
  };
}
