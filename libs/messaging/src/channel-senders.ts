import type { SealingKeys } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { createDevOutbox, type DevOutbox } from "./dev-outbox.js";
import { createSemaphoreSender } from "./semaphore-sender.js";
import type { ChannelName, MessageSender } from "./sender.js";
import type { EmailSenderConfig, SmsSenderConfig } from "./sender-config.js";
import { createSmtpSender } from "./smtp-sender.js";

/** The sender of each channel, and the development outbox when a channel uses it. */
export interface ChannelSenders {
  byChannel: Record<ChannelName, MessageSender>;
  /** Present only while at least one channel delivers into the development outbox. */
  devOutbox: DevOutbox | undefined;
  close(): Promise<void>;
}

/**
 * A service's e-mail and SMS senders as its configuration picks them (OTP_EMAIL_SENDER,
 * BILLING_SMS_SENDER…): a real provider, or the service's development outbox, whose texts
 * `sealingKeys` seals.
 */
export function createChannelSenders(
  config: { email: EmailSenderConfig; sms: SmsSenderConfig; sealingKeys: SealingKeys },
  store: Store,
  now: () => Date,
): ChannelSenders {
  let devOutbox: DevOutbox | undefined;
  const outbox = () => (devOutbox ??= createDevOutbox(store, { secret: config.sealingKeys, now }));
  const email = config.email.kind === "smtp" ? createSmtpSender(config.email.smtp) : outbox();
  const sms = config.sms.kind === "semaphore" ? createSemaphoreSender(config.sms.semaphore) : outbox();
  return {
    byChannel: { email, sms },
    devOutbox,
    async close() {
      for (const sender of new Set([email, sms])) await sender.close?.();
    },
  };
}
