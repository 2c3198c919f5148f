import nodemailer, { type NodemailerError } from "nodemailer";
import { DeliveryFailedError, DeliveryUncertainError, UNREACHABLE_NETWORK_CODES, type MessageSender, type OutboundMessage } from "./sender.js";

/**
 * How the connection is encrypted: `implicit` TLS from the first byte (port 465), `starttls`
 * (plain text upgraded before anything is sent, port 587; a server that does not offer the
 * upgrade is refused rather than spoken to in the clear), or `none` (loopback servers only:
 * config.ts refuses it for any other host).
 */
export type SmtpTlsMode = "implicit" | "starttls" | "none";

export interface SmtpSenderOptions {
  host: string;
  port: number;
  tls: SmtpTlsMode;
  /** The certificates (PEM) trusted to sign the server's, instead of Node.js's public roots. */
  ca?: string;
  /** Whether the server's certificate must be valid for `host` and signed by a trusted authority. Default true. */
  verifyCertificate?: boolean;
  user?: string;
  pass?: string;
  /** The From address, e.g. `Bayad <no-reply@bayad.ph>`. */
  from: string;
  /** The longest a send may take from connecting to the server's final reply. Default 8000. */
  timeoutMs?: number;
}

/** E-mail over SMTP with nodemailer: one connection per message (codes are few and urgent; invoices are few). */
export function createSmtpSender(options: SmtpSenderOptions): MessageSender {
  const timeoutMs = options.timeoutMs ?? 8_000;
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.tls === "implicit",
    requireTLS: options.tls === "starttls",
    // `none` means none: no opportunistic upgrade whose certificate could then fail the send.
    ignoreTLS: options.tls === "none",
    tls: {
      rejectUnauthorized: options.verifyCertificate ?? true,
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    },
    auth: options.user !== undefined ? { user: options.user, pass: options.pass } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // nodemailer logs nothing by default; its transaction log would hold the message.
    logger: false,
  });

  return {
    async send(message: OutboundMessage) {
      if (message.channel !== "email") throw new DeliveryFailedError("the e-mail sender cannot deliver an SMS");
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.recipient,
          subject: message.subject,
          text: message.body,
          ...(message.html !== undefined ? { html: message.html } : {}),
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
  if ((code === "ECONNECTION" || code === "ESOCKET") && TLS_HANDSHAKE_FAILURE_CODES.has(error.originalCode ?? "")) {
    return new DeliveryFailedError(`the e-mail server's TLS was refused (${error.originalCode})`, { cause: thrown });
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

/**
 * Failures of the TLS handshake, which comes before anything of the message is sent (implicit TLS
 * at connect, STARTTLS before MAIL FROM): the certificate could not be verified, or no common
 * protocol was found. Node.js reports them as OpenSSL's verification results or ERR_SSL_ codes.
 */
const TLS_HANDSHAKE_FAILURE_CODES = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "CERT_SIGNATURE_FAILURE",
  "CERT_NOT_YET_VALID",
  "CERT_HAS_EXPIRED",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_CHAIN_TOO_LONG",
  "CERT_REVOKED",
  "INVALID_CA",
  "PATH_LENGTH_EXCEEDED",
  "INVALID_PURPOSE",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "HOSTNAME_MISMATCH",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "ERR_SSL_UNSUPPORTED_PROTOCOL",
  "ERR_SSL_NO_PROTOCOLS_AVAILABLE",
  "ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE",
  "ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION",
  "ERR_SSL_TLSV1_ALERT_UNKNOWN_CA",
]);
