import { readFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { ConfigError, digestKeyOf, envBool, envEnum, envInt, envKeyRing, envOptional, envSecret, envString, envUrl, singleKeyRing, type Env, type KeyRing } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import type { SmtpSenderOptions } from "./senders/smtp-sender.js";
import type { SemaphoreSenderOptions } from "./senders/semaphore-sender.js";

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
}

export type EmailSenderConfig = { kind: "dev" } | { kind: "smtp"; smtp: SmtpSenderOptions };
export type SmsSenderConfig = { kind: "dev" } | { kind: "semaphore"; semaphore: SemaphoreSenderOptions };

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
    email: readEmailSender(env, sendTimeoutMs),
    sms: readSmsSender(env, sendTimeoutMs),
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

/**
 * SMTP_HOST and SMTP_FROM are required with OTP_EMAIL_SENDER=smtp; SMTP_USER and SMTP_PASS go
 * together. SMTP_TLS (implicit or starttls, default starttls) may be `none` only for a loopback
 * host: codes must not cross a network in the clear. The server's certificate is verified against
 * SMTP_CA_FILE (else the public roots) unless SMTP_TLS_VERIFY=false (self-signed dev servers).
 */
function readEmailSender(env: Env, timeoutMs: number): EmailSenderConfig {
  if (envEnum(env, "OTP_EMAIL_SENDER", ["dev", "smtp"] as const, "dev") === "dev") return { kind: "dev" };
  if (envOptional(env, "SMTP_SECURE") !== undefined) {
    throw new ConfigError("SMTP_SECURE", "is replaced by SMTP_TLS (implicit, starttls or none)");
  }
  const host = envString(env, "SMTP_HOST");
  const tls = envEnum(env, "SMTP_TLS", ["implicit", "starttls", "none"] as const, "starttls");
  if (tls === "none" && !isLoopbackHost(host)) {
    throw new ConfigError("SMTP_TLS", `may be none only for a loopback SMTP_HOST (localhost, 127.0.0.0/8, ::1), not "${host}": use implicit or starttls`);
  }
  const ca = readCaFile(env, "SMTP_CA_FILE");
  const user = envOptional(env, "SMTP_USER");
  const pass = envOptional(env, "SMTP_PASS");
  if (user !== undefined && pass === undefined) throw new ConfigError("SMTP_PASS", "is required when SMTP_USER is set");
  if (pass !== undefined && user === undefined) throw new ConfigError("SMTP_USER", "is required when SMTP_PASS is set");
  return {
    kind: "smtp",
    smtp: {
      host,
      // 465 is implicit TLS; 587 is submission with STARTTLS.
      port: envInt(env, "SMTP_PORT", tls === "implicit" ? 465 : 587, { min: 1, max: 65_535 }),
      tls,
      ...(ca !== undefined ? { ca } : {}),
      verifyCertificate: envBool(env, "SMTP_TLS_VERIFY", true),
      ...(user !== undefined ? { user, pass } : {}),
      from: envString(env, "SMTP_FROM"),
      timeoutMs,
    },
  };
}

/** localhost, 127.0.0.0/8 or ::1: a connection that never leaves the machine. */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIPv4(bare)) return bare.startsWith("127.");
  // Every spelling of ::1 (0:0:0:0:0:0:0:1, ::0001) as the URL parser writes it.
  return isIPv6(bare) && new URL(`http://[${bare}]/`).hostname === "[::1]";
}

/** The PEM certificates of the file the variable names, or undefined when it is unset. */
function readCaFile(env: Env, name: string): string | undefined {
  const path = envOptional(env, name);
  if (path === undefined) return undefined;
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(name, `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}): "${path}"`);
  }
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError(name, `must be a file of PEM certificates: "${path}"`);
  }
  return pem;
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
