import { openSealed, randomBase62, resealCollection, sealText, type ResealCounts, type SealedValue, type SealingKeys } from "@bayad/kit";
import type { CollectionDef, Filter, Store } from "@bayad/store";
import { recipientLookupKey } from "./recipients.js";
import type { ChannelName, MessageKind, MessageLocale, MessageSender, OutboundMessage } from "./sender.js";

/**
 * A message of the development outbox, as the admin API shows it: as a mailbox would, with the
 * full recipient and the whole text (a code, a payment link). Only operators (the admin API) can
 * read it, and the outbox is only for development and test mode.
 */
export interface DevMessage {
  _id: string;
  kind: MessageKind;
  channel: ChannelName;
  recipient: string;
  projectId: string;
  locale: MessageLocale;
  /** What the message is about: the OTP's id, or the invoice's. */
  resourceId: string;
  subject: string;
  body: string;
  html?: string;
  sentAt: Date;
}

/**
 * A message as `dev_messages` keeps it: its text and HTML, the one place a code would be in clear
 * outside the recipient's phone or mailbox, sealed (kit's sealText under the service's ring,
 * bound to the message id), so that a copy of the store or a backup gives nothing away.
 */
interface DevMessageRecord extends Omit<DevMessage, "body" | "html"> {
  /** The recipient as the admin query spells it (see recipientLookupKey). */
  lookupKey: string;
  sealedBody: string;
  sealedHtml?: string;
  /**
   * Orders messages taken within the same millisecond: the wall clock in fractions of a
   * millisecond, kept rising within a process, so a process started since (a restart) orders
   * after the one before it, as a counter starting again at 1 would not.
   */
  sequence: number;
  /** Kept a day: the outbox is a development aid, not an archive. */
  purgeAt: Date;
}

const devMessagesCollection: CollectionDef = {
  name: "dev_messages",
  indexes: [
    { name: "dev_messages_lookup", keys: { lookupKey: 1, sentAt: -1 } },
    { name: "dev_messages_project", keys: { projectId: 1, sentAt: -1 } },
    { name: "dev_messages_purge", keys: { purgeAt: 1 }, expireAfterSeconds: 0 },
  ],
};

const KEEP_MS = 24 * 60 * 60 * 1000;
/** Messages kept before both services shared the outbox (an OTP's only) were sealed so; they are gone within the day. */
const SEAL_PURPOSE = "dev-message";
const HTML_SEAL_PURPOSE = "dev-message-html";
const LIST_LIMIT = 100;

/** Which held messages to list: of a recipient (any spelling), of a project, of a kind; at least one of the first two. */
export interface DevMessagesQuery {
  recipient?: string;
  projectId?: string;
  kind?: MessageKind;
}

export interface DevOutbox extends MessageSender {
  /** The held messages the query selects, newest first (at most 100). */
  list(query: DevMessagesQuery): Promise<DevMessage[]>;
  /** Seals every kept text again under the ring's newest key (bayad secrets reseal). */
  resealSecrets(): Promise<ResealCounts>;
}

const sealedValuesOf = (record: DevMessageRecord): SealedValue[] => [
  { path: "sealedBody", purpose: SEAL_PURPOSE, context: record._id, sealed: record.sealedBody },
  ...(record.sealedHtml !== undefined ? [{ path: "sealedHtml", purpose: HTML_SEAL_PURPOSE, context: record._id, sealed: record.sealedHtml }] : []),
];

/**
 * The sender of development and test mode: stores each message in `dev_messages` instead of
 * sending it. `secret` (the service's key ring) seals the texts with its newest key.
 */
export function createDevOutbox(store: Store, options: { secret: SealingKeys; now?: () => Date }): DevOutbox {
  const messages = store.collection<DevMessageRecord>(devMessagesCollection);
  const now = options.now ?? (() => new Date());
  let sequence = 0;
  const nextSequence = (): number => (sequence = Math.max(sequence + 0.001, performance.timeOrigin + performance.now()));
  const open = (purpose: string, id: string, sealed: string): string | null => {
    try {
      return openSealed(options.secret, purpose, id, sealed);
    } catch {
      return null;
    }
  };
  return {
    async send(message: OutboundMessage) {
      const sentAt = now();
      const _id = `devmsg_${randomBase62(24)}`;
      await messages.insertOne({
        _id,
        kind: message.kind,
        channel: message.channel,
        recipient: message.recipient,
        lookupKey: recipientLookupKey(message.recipient),
        projectId: message.projectId,
        locale: message.locale,
        resourceId: message.resourceId,
        subject: message.subject,
        sealedBody: sealText(options.secret, SEAL_PURPOSE, _id, message.body),
        ...(message.html !== undefined ? { sealedHtml: sealText(options.secret, HTML_SEAL_PURPOSE, _id, message.html) } : {}),
        sentAt,
        sequence: nextSequence(),
        purgeAt: new Date(sentAt.getTime() + KEEP_MS),
      });
    },

    async list(query: DevMessagesQuery) {
      const filter: Filter = {};
      if (query.recipient !== undefined) filter.lookupKey = recipientLookupKey(query.recipient);
      if (query.projectId !== undefined) filter.projectId = query.projectId;
      if (query.kind !== undefined) filter.kind = query.kind;
      if (query.recipient === undefined && query.projectId === undefined) throw new Error("a recipient or a project is required");
      const found = await messages.find(filter, { sort: { sentAt: -1, sequence: -1 }, limit: LIST_LIMIT });
      return found.flatMap(({ sealedBody, sealedHtml, lookupKey: _key, sequence: _sequence, purgeAt: _purge, ...record }) => {
        const body = open(SEAL_PURPOSE, record._id, sealedBody);
        const html = sealedHtml === undefined ? undefined : open(HTML_SEAL_PURPOSE, record._id, sealedHtml);
        // Sealed under a key since dropped from the ring, or by an earlier version: not shown, and gone within the day.
        if (body === null || html === null) return [];
        return [{ ...record, body, ...(html !== undefined ? { html } : {}) }];
      });
    },

    resealSecrets() {
      return resealCollection(messages, options.secret, sealedValuesOf);
    },
  };
}
