/**
 * The senders of every message Bayad sends people (one-time passcodes, invoices, receipts): SMTP
 * e-mail, Semaphore SMS, and the development outbox that holds messages instead in development
 * and test mode. The OTP and billing services both send through them.
 */
export {
  DeliveryFailedError,
  DeliveryUncertainError,
  UNREACHABLE_NETWORK_CODES,
  describeSendError,
  type ChannelName,
  type MessageKind,
  type MessageLocale,
  type MessageSender,
  type OutboundMessage,
} from "./sender.js";
export { createSmtpSender, classifySmtpError, type SmtpSenderOptions, type SmtpTlsMode } from "./smtp-sender.js";
export { createSemaphoreSender, type SemaphoreSenderOptions } from "./semaphore-sender.js";
export { createDevOutbox, type DevMessage, type DevMessagesQuery, type DevOutbox } from "./dev-outbox.js";
export { createChannelSenders, type ChannelSenders } from "./channel-senders.js";
export { readEmailSender, readSmsSender, type EmailSenderConfig, type SmsSenderConfig } from "./sender-config.js";
export { normalizePhoneNumber, recipientLookupKey } from "./recipients.js";
export { toSemaphoreNumber } from "./philippine-mobile.js";
