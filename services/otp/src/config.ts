import { ConfigError, envBool, envEnum, envInt, envOptional, envSecret, envString, envUrl, type Env } from "@bayad/kit";
import type { SmtpSenderOptions } from "./senders/smtp-sender.js";
import type { SemaphoreSenderOptions } from "./senders/semaphore-sender.js";

/** A sliding-window limit: at most `limit` calls in any `windowSeconds` (limits/sliding-window.ts). */
export interface RateLimitSetting {
  limit: number;
  windowSeconds: number;
}

export interface OtpLimits {
  /** OTP_GENERATE_RECIPIENT_LIMIT / _WINDOW_SECONDS: 5 per 900 s (the published limit). */
  generatePerRecipient: RateLimitSetting;
  /** OTP_GENERATE_CALLER_LIMIT / _WINDOW_SECONDS: 60 per 60 s per project and environment. */
  generatePerCaller: RateLimitSetting;
  /** OTP_VERIFY_OTP_LIMIT / _WINDOW_SECONDS: 10 per 60 s per otpId (the published limit). */
  verifyPerOtp: RateLimitSetting;
  /** OTP_VERIFY_RECIPIENT_LIMIT / _WINDOW_SECONDS: 20 per 900 s per recipient, across its codes. */
  verifyPerRecipient: RateLimitSetting;
  /** OTP_VERIFY_CALLER_LIMIT / _WINDOW_SECONDS: 300 per 60 s per project and environment. */
  verifyPerCaller: RateLimitSetting;
}

export type EmailSenderConfig = { kind: "dev" } | { kind: "smtp"; smtp: SmtpSenderOptions };
export type SmsSenderConfig = { kind: "dev" } | { kind: "semaphore"; semaphore: SemaphoreSenderOptions };

export interface OtpConfig {
  /**
   * OTP_HASH_SECRET (at least 32 characters): keys the code and recipient hashes and seals
   * messages awaiting a resend. Unset, a random one is made per process, which is fine for one
   * process; replicas must share one, or a code issued by one would not verify on another.
   */
  hashSecret: string;
  hashSecretGenerated: boolean;
  limits: OtpLimits;
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
}

/** The OTP service's environment; a bad or missing value throws a one-line ConfigError. */
export function readOtpConfig(env: Env): OtpConfig {
  const hashSecret = envSecret(env, "OTP_HASH_SECRET", 32);
  const sendTimeoutMs = envInt(env, "OTP_SEND_TIMEOUT_MS", 8_000, { min: 1_000, max: 60_000 });
  return {
    hashSecret: hashSecret.value,
    hashSecretGenerated: hashSecret.generated,
    limits: {
      generatePerRecipient: readLimit(env, "OTP_GENERATE_RECIPIENT", 5, 900),
      generatePerCaller: readLimit(env, "OTP_GENERATE_CALLER", 60, 60),
      verifyPerOtp: readLimit(env, "OTP_VERIFY_OTP", 10, 60),
      verifyPerRecipient: readLimit(env, "OTP_VERIFY_RECIPIENT", 20, 900),
      verifyPerCaller: readLimit(env, "OTP_VERIFY_CALLER", 300, 60),
    },
    email: readEmailSender(env, sendTimeoutMs),
    sms: readSmsSender(env, sendTimeoutMs),
    sendTimeoutMs,
  };
}

function readLimit(env: Env, prefix: string, limit: number, windowSeconds: number): RateLimitSetting {
  return {
    limit: envInt(env, `${prefix}_LIMIT`, limit, { min: 1, max: 1_000_000 }),
    windowSeconds: envInt(env, `${prefix}_WINDOW_SECONDS`, windowSeconds, { min: 1, max: 86_400 }),
  };
}

/** SMTP_HOST and SMTP_FROM are required with OTP_EMAIL_SENDER=smtp; SMTP_USER and SMTP_PASS go together. */
function readEmailSender(env: Env, timeoutMs: number): EmailSenderConfig {
  if (envEnum(env, "OTP_EMAIL_SENDER", ["dev", "smtp"] as const, "dev") === "dev") return { kind: "dev" };
  const secure = envBool(env, "SMTP_SECURE", false);
  const user = envOptional(env, "SMTP_USER");
  const pass = envOptional(env, "SMTP_PASS");
  if (user !== undefined && pass === undefined) throw new ConfigError("SMTP_PASS", "is required when SMTP_USER is set");
  if (pass !== undefined && user === undefined) throw new ConfigError("SMTP_USER", "is required when SMTP_PASS is set");
  return {
    kind: "smtp",
    smtp: {
      host: envString(env, "SMTP_HOST"),
      // 465 is implicit TLS; 587 is submission with STARTTLS.
      port: envInt(env, "SMTP_PORT", secure ? 465 : 587, { min: 1, max: 65_535 }),
      secure,
      ...(user !== undefined ? { user, pass } : {}),
      from: envString(env, "SMTP_FROM"),
      timeoutMs,
    },
  };
}

/** SEMAPHORE_API_KEY is required with OTP_SMS_SENDER=semaphore; SEMAPHORE_SENDER_NAME is optional. */
function readSmsSender(env: Env, timeoutMs: number): SmsSenderConfig {
  if (envEnum(env, "OTP_SMS_SENDER", ["dev", "semaphore"] as const, "dev") === "dev") return { kind: "dev" };
  const senderName = envOptional(env, "SEMAPHORE_SENDER_NAME");
  if (senderName !== undefined && !/^[A-Za-z0-9 ]{1,11}$/.test(senderName)) {
    throw new ConfigError("SEMAPHORE_SENDER_NAME", "must be 1 to 11 letters or digits");
  }
  return {
    kind: "semaphore",
    semaphore: {
      apiKey: envString(env, "SEMAPHORE_API_KEY"),
      ...(senderName !== undefined ? { senderName } : {}),
      baseUrl: envUrl(env, "SEMAPHORE_BASE_URL", "https://api.semaphore.co"),
      timeoutMs,
    },
  };
}
