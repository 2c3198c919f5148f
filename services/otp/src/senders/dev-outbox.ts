import { randomBase62 } from "@bayad/kit";
import type { CollectionDef, Store } from "@bayad/store";
import { recipientLookupKey, type OtpChannelName } from "../recipients/recipient.js";
import type { OtpMessage, OtpSender } from "./sender.js";

/**
 * A message the development outbox kept instead of sending. It holds the message as a mailbox
 * would: with the full recipient and the code in its body. That is the one place a code exists
 * in clear outside the recipient's phone or mailbox, which is why the outbox is only for
 * development and test mode, and why only operators (the admin API) can read it.
 */
export interface DevMessageRecord {
  _id: string;
  otpId: string;
  channel: OtpChannelName;
  recipient: string;
  /** The recipient as the admin query spells it (see recipientLookupKey). */
  lookupKey: string;
  subject: string;
  body: string;
  sentAt: Date;
  /** Orders messages taken within the same millisecond by this process. */
  sequence: number;
  /** Kept a day: the outbox is a development aid, not an archive. */
  purgeAt: Date;
}

const devMessagesCollection: CollectionDef = {
  name: "dev_messages",
  indexes: [
    { name: "dev_messages_lookup", keys: { lookupKey: 1, sentAt: -1 } },
    { name: "dev_messages_purge", keys: { purgeAt: 1 }, expireAfterSeconds: 0 },
  ],
};

const KEEP_MS = 24 * 60 * 60 * 1000;

export interface DevOutbox extends OtpSender {
  /** The messages held for `recipient` (any spelling of it), newest first. */
  list(recipient: string): Promise<DevMessageRecord[]>;
}

/** The sender of one-process mode: stores each message in `dev_messages` instead of sending it. */
export function createDevOutbox(store: Store, options: { now?: () => Date } = {}): DevOutbox {
  const messages = store.collection<DevMessageRecord>(devMessagesCollection);
  const now = options.now ?? (() => new Date());
  let sequence = 0;
  return {
    async send(message: OtpMessage) {
      const sentAt = now();
      await messages.insertOne({
        _id: `devmsg_${randomBase62(24)}`,
        otpId: message.otpId,
        channel: message.channel,
        recipient: message.recipient,
        lookupKey: recipientLookupKey(message.recipient),
        subject: message.subject,
        body: message.body,
        sentAt,
        sequence: ++sequence,
        purgeAt: new Date(sentAt.getTime() + KEEP_MS),
      });
    },

    list(recipient: string) {
      return messages.find({ lookupKey: recipientLookupKey(recipient) }, { sort: { sentAt: -1, sequence: -1 }, limit: 100 });
    },
  };
}
