import { doublingDelay, type BackoffSettings, type Logger } from "@bayad/kit";
import type { PublicUrl } from "@bayad/public-resources";
import { DeliveryFailedError, describeSendError, type ChannelName, type MessageSender, type OutboundMessage } from "@bayad/messaging";
import type { InvoicesRepository } from "../invoices/invoices-repository.js";
import { dueDateOf, type InvoiceRecord } from "../invoices/invoice.js";
import type { SubscriptionsRepository } from "../subscriptions/subscriptions-repository.js";
import type { SubscriptionRecord } from "../subscriptions/subscription.js";
import { billingMessageId, type BillingMessageRecord } from "./billing-message.js";
import type { BillingMessagesRepository, SendOutcome } from "./billing-messages-repository.js";
import type { BillingSettingsRepository } from "./billing-settings.js";
import type { CustomerDirectory } from "./customers.js";
import { renderInvoiceMessage } from "./render-message.js";
import { messageKindOf, type InvoiceStep } from "./templates/template.js";

/** What sending an invoice's messages needs; tests build it around an embedded store and a fixed clock. */
export interface InvoiceMessagesDeps {
  invoices: InvoicesRepository;
  subscriptions: SubscriptionsRepository;
  messages: BillingMessagesRepository;
  settings: BillingSettingsRepository;
  customers: CustomerDirectory;
  /** Makes the sandbox's hosted-page paths absolute (PUBLIC_URL, else the platform's gateway URL). */
  publicUrl: PublicUrl;
  /**
   * Live mode's sender per channel (BILLING_EMAIL_SENDER, BILLING_SMS_SENDER), and test mode's:
   * always the development outbox, never SMTP or Semaphore.
   */
  senders: { live: Record<ChannelName, MessageSender>; test: MessageSender };
  /** The wait before a message whose send failed definitely is tried again, doubling; and how many tries in all. */
  retry: BackoffSettings & { maxAttempts: number };
  /** How long a send may be under way before it is taken for one its process never finished. */
  sendingLeaseMs: number;
  logger: Logger;
  now: () => Date;
}

/** The invoice step an event announces: an invoice opened (it has its payment page) or paid. */
export function stepOfEvent(type: string): InvoiceStep | null {
  if (type === "billing.invoice.open") return "invoice";
  if (type === "billing.invoice.paid") return "receipt";
  return null;
}

/**
 * Records the messages of an invoice step (e-mail; SMS too where the project enables it and the
 * customer has a phone), each once: a message already recorded, whatever became of it, is left
 * as it is. Returns the step's messages still pending. Throws when the customer cannot be looked
 * up now (the event is then delivered again).
 */
export async function recordInvoiceMessages(deps: InvoiceMessagesDeps, invoiceId: string, step: InvoiceStep): Promise<BillingMessageRecord[]> {
  const invoice = await deps.invoices.findByIdUnscoped(invoiceId);
  if (!invoice) return [];
  const subscription = await deps.subscriptions.findByIdUnscoped(invoice.subscriptionId);
  if (!subscription) return [];
  const pending: BillingMessageRecord[] = [];
  for (const message of await stepMessages(deps, invoice, subscription, step)) {
    if (await deps.messages.record(message)) pending.push(message);
  }
  return pending;
}

/**
 * The messages of an invoice step, not recorded yet: e-mail, and SMS too where the project
 * enables it and the customer has a phone; none when the customer is unknown (logged). Throws
 * when the customer cannot be looked up now. `asOf`: a reminder's time.
 */
export async function stepMessages(
  deps: Pick<InvoiceMessagesDeps, "customers" | "settings" | "logger" | "now">,
  invoice: InvoiceRecord,
  subscription: Pick<SubscriptionRecord, "customerId">,
  step: InvoiceStep,
  asOf?: Date,
): Promise<BillingMessageRecord[]> {
  const customer = await deps.customers.find(invoice, subscription.customerId);
  if (!customer) {
    deps.logger.warn({ invoiceId: invoice._id, step, projectId: invoice.projectId }, "invoice messages not sent: the customer is unknown to the payments service");
    return [];
  }
  const settings = await deps.settings.get(invoice.projectId);
  const channels: ChannelName[] = ["email", ...(settings.smsEnabled && customer.phone ? (["sms"] as const) : [])];
  const now = deps.now();
  return channels.map((channel) => ({
    _id: billingMessageId(invoice._id, step, channel),
    invoiceId: invoice._id,
    step,
    channel,
    projectId: invoice.projectId,
    environment: invoice.environment,
    status: "pending",
    attempts: 0,
    nextAttemptAt: now,
    ...(asOf ? { asOf } : {}),
    createdAt: now,
    updatedAt: now,
  }));
}

/**
 * Sends one pending message, once it is claimed (nobody else can send it meanwhile), and records
 * the outcome: sent; tried again later, with a doubling wait, after a definite failure (nothing
 * was sent); `failed` once the tries are used up; `uncertain`, never sent again, when it may have
 * been taken.
 */
export async function deliverBillingMessage(deps: InvoiceMessagesDeps, message: BillingMessageRecord): Promise<BillingMessageRecord["status"]> {
  const claimed = await deps.messages.claim(message, deps.now());
  if (!claimed) return message.status;
  const log = { messageId: claimed._id, channel: claimed.channel, attempt: claimed.attempts };
  const settle = async (outcome: SendOutcome) => {
    if (!(await deps.messages.settle(claimed, outcome, deps.now()))) deps.logger.warn(log, "billing message outcome superseded");
    return outcome.status;
  };
  const retryOrFail = (failure: string) =>
    settle(
      claimed.attempts >= deps.retry.maxAttempts
        ? { status: "failed", failure }
        : { status: "pending", failure, nextAttemptAt: new Date(deps.now().getTime() + doublingDelay(deps.retry, claimed.attempts)) },
    );

  let outbound: OutboundMessage | string;
  try {
    outbound = await composeMessage(deps, claimed);
  } catch (error) {
    // Nothing was sent: the customer could not be looked up now.
    deps.logger.warn({ ...log, err: error }, "billing message not composed; tried again later");
    return retryOrFail("the customer could not be looked up");
  }
  if (typeof outbound === "string") return settle({ status: "failed", failure: outbound });

  const sender = claimed.environment === "test" ? deps.senders.test : deps.senders.live[claimed.channel];
  try {
    await sender.send(outbound);
  } catch (error) {
    if (error instanceof DeliveryFailedError) {
      deps.logger.warn({ ...log, send: describeSendError(error) }, "billing message not delivered; tried again later");
      return retryOrFail(error.reason);
    }
    deps.logger.warn({ ...log, send: describeSendError(error) }, "billing message delivery uncertain: not sent again");
    return settle({ status: "uncertain", failure: "the delivery could not be confirmed" });
  }
  deps.logger.info(log, "billing message sent");
  return settle({ status: "sent" });
}

/** The message to send, or why there is none to send. */
async function composeMessage(deps: InvoiceMessagesDeps, message: BillingMessageRecord): Promise<OutboundMessage | string> {
  const invoice = await deps.invoices.findByIdUnscoped(message.invoiceId);
  const subscription = invoice && (await deps.subscriptions.findByIdUnscoped(invoice.subscriptionId));
  if (!invoice || !subscription) return "the invoice is gone";
  if (!invoice.hostedInvoiceUrl) return "the invoice has no payment page";
  const customer = await deps.customers.find(invoice, subscription.customerId);
  if (!customer) return "the customer is unknown";
  const recipient = message.channel === "email" ? customer.email : customer.phone;
  if (!recipient) return `the customer has no ${message.channel === "email" ? "e-mail address" : "phone"}`;
  const settings = await deps.settings.get(invoice.projectId);
  const locale = customer.locale ?? settings.defaultLocale;
  const rendered = renderInvoiceMessage(message.step, locale, {
    projectName: subscription.projectName ?? subscription.planName,
    ...(settings.supportContact ? { supportContact: settings.supportContact } : {}),
    ...(customer.name ? { customerName: customer.name } : {}),
    planName: subscription.planName,
    invoiceId: invoice._id,
    amountMinor: invoice.amountMinor,
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
    dueAt: dueDateOf(invoice),
    hostedUrl: deps.publicUrl(invoice.hostedInvoiceUrl),
    ...(invoice.providerPayment ? { paidAt: invoice.providerPayment.paidAt } : {}),
    ...(message.asOf ? { asOf: message.asOf } : {}),
  });
  return {
    kind: messageKindOf(message.step),
    channel: message.channel,
    recipient,
    subject: rendered.subject,
    body: message.channel === "email" ? rendered.text : rendered.sms,
    ...(message.channel === "email" ? { html: rendered.html } : {}),
    locale,
    projectId: invoice.projectId,
    resourceId: invoice._id,
  };
}

/**
 * One round of the retry worker: sends left unsettled by a process that died become `uncertain`
 * (never sent again), then pending messages that are due are sent. Returns how many it tried.
 */
export async function deliverDueMessages(deps: InvoiceMessagesDeps, limit = 50): Promise<number> {
  const now = deps.now();
  for (const abandoned of await deps.messages.findAbandoned(new Date(now.getTime() - deps.sendingLeaseMs), limit)) {
    await deps.messages.settle(abandoned, { status: "uncertain", failure: "the sending process stopped before the outcome was known" }, now);
    deps.logger.warn({ messageId: abandoned._id }, "billing message send never finished: left uncertain, not sent again");
  }
  const due = await deps.messages.findDue(now, limit);
  for (const message of due) await deliverBillingMessage(deps, message);
  return due.length;
}
