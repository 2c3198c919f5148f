import type { Environment } from "@bayad/kit";
import type { ChannelName } from "@bayad/messaging";
import type { InvoiceStep } from "./templates/template.js";

/**
 * Where one message of an invoice step stands:
 * - `pending`: not sent yet (first try, or again after a definite failure, at nextAttemptAt);
 * - `sending`: claimed by a sender, outcome not recorded yet;
 * - `sent`: the sender took it;
 * - `failed`: every attempt failed definitely (nothing was sent), or it cannot be sent (no address);
 * - `uncertain`: a send's outcome is unknown (the connection broke, or the process died while
 *   sending): it is never repeated, since the customer may have it already.
 */
export type BillingMessageStatus = "pending" | "sending" | "sent" | "failed" | "uncertain";

/**
 * One message of one invoice step on one channel, as `billing_messages` keeps it: its id is
 * (invoiceId, step, channel), claimed before anything is sent, so that a step's message is sent at
 * most once whoever handles its event, however often, across restarts.
 */
export interface BillingMessageRecord {
  /** `<invoiceId>:<step>:<channel>`. */
  _id: string;
  invoiceId: string;
  step: InvoiceStep;
  channel: ChannelName;
  projectId: string;
  environment: Environment;
  status: BillingMessageStatus;
  /** Sends started so far. */
  attempts: number;
  /** When a pending message is next tried. */
  nextAttemptAt: Date;
  /** When the current (or last) send started. */
  startedAt?: Date;
  sentAt?: Date;
  /** A reminder's time (the dunning run's, which claimed it): its "due in n days" counts from then. */
  asOf?: Date;
  /** Why it failed (or was not sent): never the recipient or the message. */
  failure?: string;
  createdAt: Date;
  updatedAt: Date;
}

export const billingMessageId = (invoiceId: string, step: InvoiceStep, channel: ChannelName) => `${invoiceId}:${step}:${channel}`;
