import { readFileSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { ConfigError, envBool, envEnum, envInt, envOptional, envString, envUrl, type Env } from "@bayad/kit";
import type { SemaphoreSenderOptions } from "./semaphore-sender.js";
import type { SmtpSenderOptions } from "./smtp-sender.js";

export type EmailSenderConfig = { kind: "dev" } | { kind: "smtp"; smtp: SmtpSenderOptions };
export type SmsSenderConfig = { kind: "dev" } | { kind: "semaphore"; semaphore: SemaphoreSenderOptions };

/**
 * `selector` (OTP_EMAIL_SENDER, BILLING_EMAIL_SENDER): `dev` (the default, the development
 * outbox) or `smtp`. SMTP_HOST and SMTP_FROM are required with smtp; SMTP_USER and SMTP_PASS go
 * together. SMTP_TLS (implicit or starttls, default starttls) may be `none` only for a loopback
 * host: codes must not cross a network in the clear. The server's certificate is verified against
 * SMTP_CA_FILE (else the public roots) unless SMTP_TLS_VERIFY=false (self-signed dev servers).
 */
export function readEmailSender(env: Env, selector: string, timeoutMs: number): EmailSenderConfig {
  if (envEnum(env, selector, ["dev", "smtp"] as const, "dev") === "dev") return { kind: "dev" };
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

/**
 * `selector` (OTP_SMS_SENDER, BILLING_SMS_SENDER): `dev` (the default, the development outbox) or
 * `semaphore`. SEMAPHORE_API_KEY is required with semaphore; SEMAPHORE_SENDER_NAME is optional.
 */
export function readSmsSender(env: Env, selector: string, timeoutMs: number): SmsSenderConfig {
  if (envEnum(env, selector, ["dev", "semaphore"] as const, "dev") === "dev") return { kind: "dev" };
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
