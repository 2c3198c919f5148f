import { humanize, localeLabel } from "../../format";
import type { BayadEvent } from "../payments/payment-history";
import type { DevMessage, Invoice } from "./types";

/** One line of an invoice's timeline; `at` absent when the API records no time for it. */
export interface TimelineEntry {
  key: string;
  at?: string;
  title: string;
  details: string[];
  /** The event it comes from. */
  eventId?: string;
  /** Still to come (the next reminder), not yet happened. */
  upcoming?: boolean;
}

const messageTitles: Record<string, string> = { invoice: "Invoice sent", reminder: "Reminder sent", receipt: "Receipt sent" };
const channelLabels: Record<string, string> = { email: "e-mail", sms: "SMS" };

const labelOf = (labels: Record<string, string>, value: string) => (Object.hasOwn(labels, value) ? labels[value] : humanize(value));

function messageEntry(message: DevMessage): TimelineEntry {
  return {
    key: `message/${message.messageId}`,
    at: message.sentAt,
    title: Object.hasOwn(messageTitles, message.kind) ? messageTitles[message.kind] : `${humanize(message.kind)} sent`,
    details: [
      `by ${labelOf(channelLabels, message.channel)} to ${message.recipient}`,
      `in ${localeLabel(message.locale)}`,
      ...(message.subject ? [`“${message.subject}”`] : []),
    ],
  };
}

function eventEntry(event: BayadEvent): TimelineEntry | undefined {
  const data = event.data;
  switch (event.type) {
    case "invoice.reminder_sent": {
      const step = typeof data.dunningStep === "number" ? data.dunningStep : undefined;
      const next = typeof data.nextDunningAt === "string" ? data.nextDunningAt : undefined;
      return {
        key: `event/${event.id}`,
        at: event.createdAt,
        title: step ? `Reminder step ${step} taken` : "Reminder step taken",
        details: [next ? "the next step follows" : "the last step: the schedule's final action follows"],
        eventId: event.id,
      };
    }
    case "invoice.paid":
      return { key: `event/${event.id}`, at: event.createdAt, title: "Paid", details: [], eventId: event.id };
    case "invoice.payment_failed":
      return { key: `event/${event.id}`, at: event.createdAt, title: "Payment failed", details: [], eventId: event.id };
    default:
      return { key: `event/${event.id}`, at: event.createdAt, title: event.type, details: [], eventId: event.id };
  }
}

/**
 * What happened to an invoice, oldest first: opened (its period's start: an invoice is issued as
 * its period starts), each message its customer was sent, each dunning step (its
 * `invoice.reminder_sent` event), its due date (its period's end), paid or void, and the next
 * reminder still to come. States the API gives no time for (void) come last.
 */
export function timelineEntries(invoice: Invoice, events: readonly BayadEvent[], messages: readonly DevMessage[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  if (invoice.status !== "draft" && invoice.periodStart) entries.push({ key: "opened", at: invoice.periodStart, title: "Opened", details: ["its period started"] });
  for (const message of messages) if (message.resourceId === invoice.invoiceId) entries.push(messageEntry(message));
  for (const event of events) {
    const entry = eventEntry(event);
    if (entry) entries.push(entry);
  }
  if (invoice.periodEnd) {
    entries.push({
      key: "due",
      at: invoice.periodEnd,
      title: "Due",
      details: [invoice.status === "past_due" ? "not paid by then: past due" : "its period's end"],
    });
  }
  if (invoice.status === "paid" && !events.some((event) => event.type === "invoice.paid")) entries.push({ key: "paid", title: "Paid", details: [] });
  if (invoice.status === "void") entries.push({ key: "void", title: "Void", details: ["no longer payable; no reminders follow"] });
  if (invoice.nextDunningAt) {
    entries.push({ key: "next", at: invoice.nextDunningAt, title: "Next reminder due", details: [`step ${(invoice.dunningStep ?? 0) + 1}`], upcoming: true });
  }
  return entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => {
      if (a.entry.at && b.entry.at) return Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.order - b.order;
      return a.entry.at ? -1 : b.entry.at ? 1 : a.order - b.order;
    })
    .map(({ entry }) => entry);
}
