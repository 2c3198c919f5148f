/** The two ways a message reaches a person. */
export type ChannelName = "sms" | "email";

/** What a message is for: a one-time passcode, an invoice to pay, a reminder of an unpaid one, or the receipt of a paid one. */
export type MessageKind = "otp" | "invoice" | "reminder" | "receipt";

/** The languages messages are written in: English and Filipino. */
export type MessageLocale = "en" | "fil";

/** One message to one recipient: an SMS (subject and html unused) or an e-mail. */
export interface OutboundMessage {
  channel: ChannelName;
  /** The normalized recipient: `+<digits>` for sms, a lower-case address for email. */
  recipient: string;
  subject: string;
  /** The text: the whole SMS, or the plain-text part of an e-mail. */
  body: string;
  /** The e-mail's HTML part, when it has one (sent beside `body` as multipart/alternative). */
  html?: string;
  kind: MessageKind;
  locale: MessageLocale;
  /** The project the message is sent for. */
  projectId: string;
  /** What the message is about: the OTP's id, or the invoice's. */
  resourceId: string;
}

/**
 * Where messages leave a service. `send` resolves once the provider has taken the message. It
 * rejects with DeliveryFailedError when the message was certainly not taken (refused, invalid
 * destination, nothing reachable), and with DeliveryUncertainError when it may or may not have
 * been (the connection broke or timed out after the message went out). Any other rejection is
 * treated as uncertain too: only a sender can know that nothing was sent.
 */
export interface MessageSender {
  send(message: OutboundMessage): Promise<void>;
  /** Releases connections; called when the server stops. */
  close?(): Promise<void>;
}

/**
 * Network error codes that mean the provider was never reached (no such host, connection
 * refused, no route): nothing was sent, so a send that fails with one failed definitely.
 */
export const UNREACHABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);

/**
 * The message was certainly not delivered. `reason` is shown to the caller (as a detail naming
 * `recipient`), so it never contains the recipient itself, the message or a provider's raw text.
 */
export class DeliveryFailedError extends Error {
  readonly reason: string;
  /** When the provider said how long to wait (Semaphore's 429 Retry-After). */
  readonly retryAfterSeconds: number | undefined;

  constructor(reason: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(`Delivery failed: ${reason}`, { cause: options.cause });
    this.name = "DeliveryFailedError";
    this.reason = reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The provider may have taken the message: only a retry that reconciles can settle it. */
export class DeliveryUncertainError extends Error {
  readonly reason: string;

  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(`Delivery outcome unknown: ${reason}`, { cause: options.cause });
    this.name = "DeliveryUncertainError";
    this.reason = reason;
  }
}

/** What a failed send tells us, for logs: never the message, the recipient or raw provider text. */
export function describeSendError(error: unknown): Record<string, unknown> {
  if (error instanceof DeliveryFailedError || error instanceof DeliveryUncertainError) {
    return { kind: error.name, reason: error.reason };
  }
  return { kind: error instanceof Error ? error.name : typeof error };
}
