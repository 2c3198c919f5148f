import type { SealingKeys } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { EmailSenderConfig, SmsSenderConfig } from "../config.js";
import type { OtpChannelName } from "../recipients/recipient.js";
import { createDevOutbox, type DevOutbox } from "./dev-outbox.js";
import { createSemaphoreSender } from "./semaphore-sender.js";
import type { OtpSender } from "./sender.js";
import { createSmtpSender } from "./smtp-sender.js";

/** The sender of each channel, and the development outbox when a channel uses it. */
export interface ChannelSenders {
  byChannel: Record<OtpChannelName, OtpSender>;
  /** Present only while at least one channel delivers into the development outbox. */
  devOutbox: DevOutbox | undefined;
  close(): Promise<void>;
}

/** OTP_EMAIL_SENDER / OTP_SMS_SENDER routing: a real provider or the shared development outbox. */
export function createChannelSenders(
  config: { email: EmailSenderConfig; sms: SmsSenderConfig; hashSecrets: SealingKeys },
  store: Store,
  now: () => Date,
): ChannelSenders {
  let devOutbox: DevOutbox | undefined;
  const outbox = () => (devOutbox ??= createDevOutbox(store, { secret: config.hashSecrets, now }));
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
