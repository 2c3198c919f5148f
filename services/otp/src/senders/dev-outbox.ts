import { openSealed, randomBase62, resealCollection, sealText, type ResealCounts, type SealedValue, type SealingKeys } from "@bayad/kit";
import type { CollectionDef, Store } from "@bayad/store";
import { recipientLookupKey, type OtpChannelName } from "../recipients/recipient.js";
import type { OtpMessage, OtpSender } from "./sender.js";

/**
 * A message of the development outbox, as the admin API shows it: as a mailbox would, with the
 * full recipient and the code in its body. Only operators (the admin API) can read it, and the
 * outbox is only for development and test mode.
 */
export interface DevMessage {
  _id: string;
  otpId: string;
  channel: OtpChannelName;
  recipient: string;
  subject: string;
  body: string;
  sentAt: Date;
}

/**
 * A message as `dev_messages` keeps it: its body, the one place a code would be in clear
 * outside the recipient's phone or mailbox, sealed (kit's sealText under OTP_HASH_SECRET, bound
 * to the message id), so that a copy of the store or a backup gives no code away.
 */
interface DevMessageRecord extends Omit<DevMessage, "body"> {
  /** The recipient as the admin query spells it (see recipientLookupKey). */
  lookupKey: string;
  sealedBody: string;
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
const SEAL_PURPOSE = "otp-dev-message";

export interface DevOutbox extends OtpSender {
  /** The messages held for `recipient` (any spelling of it), newest first. */
  list(recipient: string): Promise<DevMessage[]>;
  /** Seals every kept body again under the ring's newest key (bayad secrets reseal). */
  resealSecrets(): Promise<ResealCounts>;
}

const sealedValuesOf = (record: DevMessageRecord): SealedValue[] => [
  { path: "sealedBody", purpose: SEAL_PURPOSE, context: record._id, sealed: record.sealedBody },
];

/**
 * The sender of one-process mode: stores each message in `dev_messages` instead of sending it.
 * `secret` (the OTP_HASH_SECRETS ring) seals the bodies with its newest key.
 */
export function createDevOutbox(store: Store, options: { secret: SealingKeys; now?: () => Date }): DevOutbox {
  const messages = store.collection<DevMessageRecord>(devMessagesCollection);
  const now = options.now ?? (() => new Date());
  let sequence = 0;
  return {
    async send(message: OtpMessage) {
      const sentAt = now();
      const _id = `devmsg_${randomBase62(24)}`;
      await messages.insertOne({
        _id,
        otpId: message.otpId,
        channel: message.channel,
        recipient: message.recipient,
        lookupKey: recipientLookupKey(message.recipient),
        subject: message.subject,
        sealedBody: sealText(options.secret, SEAL_PURPOSE, _id, message.body),
        sentAt,
        sequence: ++sequence,
        purgeAt: new Date(sentAt.getTime() + KEEP_MS),
      });
    },

    async list(recipient: string) {
      const found = await messages.find({ lookupKey: recipientLookupKey(recipient) }, { sort: { sentAt: -1, sequence: -1 }, limit: 100 });
      return found.flatMap(({ _id, otpId, channel, recipient: to, subject, sealedBody, sentAt }) => {
        let body: string;
        try {
          body = openSealed(options.secret, SEAL_PURPOSE, _id, sealedBody);
        } catch {
          // Sealed under an OTP_HASH_SECRET since changed (its code no longer verifies either), or
          // kept in clear by an earlier version: not shown, and gone within the day.
          return [];
        }
        return [{ _id, otpId, channel, recipient: to, subject, body, sentAt }];
      });
    },

    resealSecrets() {
      return resealCollection(messages, options.secret, sealedValuesOf);
    },
  };
}
