/**
 * The senders of every message Bayad sends people (one-time passcodes, invoices, receipts): SMTP
 * e-mail, Semaphore SMS, and the development outbox that holds messages instead in development
 * and test mode. The OTP and billing services both send through them. The SMS template measure
 * (also `@bayad/messaging/sms-template`, browser-safe for the dashboard) is here too.
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
export {
  DEFAULT_APP_NAME,
  LONGEST_CODE,
  LONGEST_MINUTES,
  SMS_SEGMENT_LENGTH,
  TEMPLATE_PLACEHOLDERS,
  appNameOrDefault,
  fillTemplate,
  gsm7Length,
  measureTemplate,
  nonGsm7Characters,
  unknownPlaceholders,
  type TemplateMeasure,
  type TemplatePlaceholder,
} from "./sms-template.js";
