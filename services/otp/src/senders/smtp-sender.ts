import nodemailer, { type NodemailerError } from "nodemailer";
import { DeliveryFailedError, DeliveryUncertainError, UNREACHABLE_NETWORK_CODES, type OtpMessage, type OtpSender } from "./sender.js";

export interface SmtpSenderOptions {
  host: string;
  port: number;
  /** Implicit TLS (port 465). Without it nodemailer upgrades with STARTTLS when offered. */
  secure: boolean;
  user?: string;
  pass?: string;
  /** The From address, e.g. `Bayad <no-reply@bayad.ph>`. */
  from: string;
  /** The longest a send may take from connecting to the server's final reply. Default 8000. */
  timeoutMs?: number;
}

/** E-mail over SMTP with nodemailer: one connection per message (codes are few and urgent). */
export function createSmtpSender(options: SmtpSenderOptions): OtpSender {
  const timeoutMs = options.timeoutMs ?? 8_000;
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    auth: options.user !== undefined ? { user: options.user, pass: options.pass } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // nodemailer logs nothing by default; its transaction log would hold the message.
    logger: false,
  });

  return {
    async send(message: OtpMessage) {
      if (message.channel !== "email") throw new DeliveryFailedError("the e-mail sender cannot deliver an SMS");
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.recipient,
          subject: message.subject,
          text: message.body,
          // Bounds the whole send; an abort is classified below (it proves nothing either way).
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (info.rejected.length > 0 || info.accepted.length === 0) {
          throw new DeliveryFailedError("the e-mail server refused the recipient");
        }
      } catch (error) {
        throw classifySmtpError(error);
      }
    },

    async close() {
      transport.close();
    },
  };
}

/**
 * Whether the server can have taken the message.
 *
 * Any SMTP reply that carries a code is the server's decision: a 5xx (permanent) or 4xx
 * (transient) rejection, at RCPT TO or after DATA, means it did not take responsibility for the
 * message, so it is a definite failure (we do not retry a transient one: the caller asks for a
 * new code). Failures that happen before a session exists (DNS, refused connection, connect or
 * greeting timeout, TLS, authentication, a bad envelope) are definite too. A connection that
 * breaks or times out once the session is open, or our own abort, is uncertain: nodemailer
 * does not say whether the message body had gone out and the final reply was merely lost.
 */
export function classifySmtpError(thrown: unknown): DeliveryFailedError | DeliveryUncertainError {
  if (thrown instanceof DeliveryFailedError || thrown instanceof DeliveryUncertainError) return thrown;
  const error = thrown as NodemailerError;
  if (typeof error.responseCode === "number") {
    return new DeliveryFailedError(`the e-mail server refused the message (${error.responseCode})`, { cause: thrown });
  }
  const code = typeof error.code === "string" ? error.code : "";
  if (definiteCodes.has(code)) {
    return new DeliveryFailedError(`the e-mail server could not be used (${code})`, { cause: thrown });
  }
  if ((code === "ECONNECTION" || code === "ESOCKET") && UNREACHABLE_NETWORK_CODES.has(error.originalCode ?? "")) {
    return new DeliveryFailedError(`the e-mail server could not be reached (${error.originalCode})`, { cause: thrown });
  }
  if (code === "ETIMEDOUT" && error.timeoutType !== undefined && error.timeoutType !== "SOCKET_TIMEOUT") {
    return new DeliveryFailedError(`the e-mail server did not answer (${error.timeoutType})`, { cause: thrown });
  }
  return new DeliveryUncertainError(`the e-mail connection ended before the server's final reply (${code || "unknown"})`, { cause: thrown });
}

const definiteCodes = new Set([
  "EDNS",
  "ETLS",
  "EREQUIRETLS",
  "EAUTH",
  "ENOAUTH",
  "EOAUTH2",
  "EENVELOPE",
  "EOTP",
  "ECONFIG",
  "EPROXY",
  "EMAXRECIPIENTS",
]);
