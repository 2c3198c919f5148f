import type { InvoiceRecord } from "../invoices/invoice.js";
import { deliverBillingMessage, recordInvoiceMessages, type InvoiceMessagesDeps } from "./invoice-messages.js";
import type { InvoiceStep } from "./templates/template.js";

/** How far back the catch-up looks: invoices opened (or paid) longer ago are left as they are. */
export const MESSAGES_SWEEP_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface MessagesSweepOptions {
  batchSize?: number;
  /** Renews the clock's lease between batches; false: another clock has it, so this sweep stops. */
  keepLease?: () => Promise<boolean>;
}

/** One kind of invoice the sweep walks: found by an index, in the order of one of its times. */
interface SweepSource {
  step: InvoiceStep;
  find(since: Date, limit: number, skip: readonly string[]): Promise<InvoiceRecord[]>;
  timeOf(invoice: InvoiceRecord): Date;
}

/**
 * The billing clock's catch-up of invoice messages whose event was never handled (the process
 * stopped between the event's publication and its handling): open and past-due invoices created
 * within the last 7 days with no "invoice" message recorded, and invoices paid within them with no
 * "receipt", get that step's messages recorded and sent the way the event's consumer does. The
 * messages' ids are unique per invoice, step and channel, so whichever of the consumer and the
 * sweep records a step first sends it, and the other sends nothing. Returns how many invoice
 * steps it recorded.
 */
export async function sweepInvoiceMessages(deps: InvoiceMessagesDeps, until: Date, options: MessagesSweepOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  const since = new Date(until.getTime() - MESSAGES_SWEEP_WINDOW_MS);
  const sources: SweepSource[] = [
    ...(["open", "past_due"] as const).map((status) => ({
      step: "invoice" as const,
      find: (from: Date, limit: number, skip: readonly string[]) => deps.invoices.findCreatedSince(status, from, limit, skip),
      timeOf: (invoice: InvoiceRecord) => invoice.createdAt,
    })),
    {
      step: "receipt",
      find: (from, limit, skip) => deps.invoices.findPaidSince(from, limit, skip),
      timeOf: (invoice) => invoice.providerPayment!.paidAt,
    },
  ];
  let recorded = 0;
  for (const source of sources) {
    // Walked by time: from the latest time seen, but the invoices already seen at that time.
    let from = since;
    let seenAtFrom: string[] = [];
    for (;;) {
      const page = await source.find(from, batchSize, seenAtFrom);
      for (const invoice of page) {
        const at = source.timeOf(invoice);
        if (at.getTime() !== from.getTime()) [from, seenAtFrom] = [at, []];
        seenAtFrom.push(invoice._id);
        try {
          if (await catchUp(deps, invoice, source.step)) recorded += 1;
        } catch (error) {
          deps.logger.warn({ err: error, invoiceId: invoice._id, step: source.step }, "invoice messages not caught up; tried again next round");
        }
      }
      if (page.length < batchSize) break;
      if (options.keepLease && !(await options.keepLease())) return recorded;
    }
  }
  return recorded;
}

/** Records and sends the invoice's `step` unless a message of it is recorded already; true when it recorded any. */
async function catchUp(deps: InvoiceMessagesDeps, invoice: InvoiceRecord, step: InvoiceStep): Promise<boolean> {
  if (await deps.messages.hasStep(invoice._id, step)) return false;
  const pending = await recordInvoiceMessages(deps, invoice._id, step);
  if (pending.length === 0) return false;
  deps.logger.warn({ invoiceId: invoice._id, step }, "invoice step's event was never handled: its messages caught up");
  for (const message of pending) {
    try {
      await deliverBillingMessage(deps, message);
    } catch (error) {
      deps.logger.warn({ err: error, messageId: message._id }, "billing message left for the retry worker");
    }
  }
  return true;
}
