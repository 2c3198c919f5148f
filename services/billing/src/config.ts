import { envInt, envUrl, type Env } from "@bayad/kit";
import { readEmailSender, readSmsSender, type EmailSenderConfig, type SmsSenderConfig } from "@bayad/messaging";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import { readProviderAccountsConfig, readSandboxOptions, type ProviderAccountsConfig, type SandboxProviderOptions } from "@bayad/provider";

export interface BillingConfig {
  /** How often the billing clock looks for periods that have ended. */
  clockIntervalMs: number;
  /**
   * How long the clock's lease lasts unrenewed: after a holder crashes, another replica's clock
   * takes over within this long. Renewed every tick, so it should exceed clockIntervalMs.
   */
  clockLeaseMs: number;
  sandbox: SandboxProviderOptions;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (86400, the gateway's): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
  /**
   * The projects' own provider accounts (PayMongo, Xendit), for invoices' hosted payments:
   * SECRETS_KEY (the payments service's, which opens their sealed keys), PAYMONGO_API_BASE,
   * XENDIT_API_BASE, PROVIDER_RECONCILE_AFTER and _INTERVAL (how invoices paid at the provider
   * are found paid).
   */
  providerAccounts: ProviderAccountsConfig;
  /**
   * PAYMENTS_URL (e.g. http://payments:50051): the payments service, which resolves a project's
   * provider account. Unset (and no in-process transport given), invoices use the sandbox only
   * and live subscriptions answer PROVIDER_NOT_CONFIGURED.
   */
  paymentsUrl?: string;
  /** How invoices and receipts reach customers. */
  messages: BillingMessagesConfig;
}

export interface BillingMessagesConfig {
  /**
   * BILLING_EMAIL_SENDER (`dev`, the default: the development outbox; or `smtp`, with OTP's SMTP_*
   * variables) and BILLING_SMS_SENDER (`dev` or `semaphore`, with SEMAPHORE_*): live mode's
   * senders. Test mode's messages always go to the development outbox.
   */
  email: EmailSenderConfig;
  sms: SmsSenderConfig;
  /** BILLING_MESSAGES_INTERVAL_MS (5000): how often messages whose send failed are looked at again. */
  intervalMs: number;
  /** BILLING_MESSAGES_RETRY_MS (30000): the first wait after a failed send, doubling up to an hour. */
  retryInitialMs: number;
  /** BILLING_MESSAGES_MAX_ATTEMPTS (8): sends tried before a message is given up as failed. */
  maxAttempts: number;
  /** BILLING_SEND_TIMEOUT_MS (8000): the longest one send may take. */
  sendTimeoutMs: number;
  /**
   * PUBLIC_URL: makes the sandbox's hosted invoice pages absolute in messages; the one-process
   * platform hands over its gateway's URL instead.
   */
  publicUrl?: string;
}

/** The billing service's environment; a bad value throws a one-line ConfigError. */
export function readBillingConfig(env: Env): BillingConfig {
  const paymentsUrl = envUrl(env, "PAYMENTS_URL");
  return {
    clockIntervalMs: envInt(env, "BILLING_CLOCK_INTERVAL_MS", 10_000, { min: 10, max: 3_600_000 }),
    clockLeaseMs: envInt(env, "BILLING_CLOCK_LEASE_MS", 30_000, { min: 10, max: 3_600_000 }),
    sandbox: readSandboxOptions(env),
    idempotencyWindowMs: readIdempotencyWindowMs(env, "payment"),
    providerAccounts: readProviderAccountsConfig(env),
    ...(paymentsUrl !== undefined ? { paymentsUrl } : {}),
    messages: readMessagesConfig(env),
  };
}

function readMessagesConfig(env: Env): BillingMessagesConfig {
  const sendTimeoutMs = envInt(env, "BILLING_SEND_TIMEOUT_MS", 8_000, { min: 1_000, max: 60_000 });
  const publicUrl = envUrl(env, "PUBLIC_URL");
  return {
    email: readEmailSender(env, "BILLING_EMAIL_SENDER", sendTimeoutMs),
    sms: readSmsSender(env, "BILLING_SMS_SENDER", sendTimeoutMs),
    intervalMs: envInt(env, "BILLING_MESSAGES_INTERVAL_MS", 5_000, { min: 10, max: 3_600_000 }),
    retryInitialMs: envInt(env, "BILLING_MESSAGES_RETRY_MS", 30_000, { min: 10, max: 3_600_000 }),
    maxAttempts: envInt(env, "BILLING_MESSAGES_MAX_ATTEMPTS", 8, { min: 1, max: 100 }),
    sendTimeoutMs,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
  };
}
