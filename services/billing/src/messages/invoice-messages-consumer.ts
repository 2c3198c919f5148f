import { eventMessageHandler, traceMessages, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import { pause } from "@bayad/kit";
import { deliverBillingMessage, deliverDueMessages, recordInvoiceMessages, stepOfEvent, type InvoiceMessagesDeps } from "./invoice-messages.js";

/** This service's durable consumer of its own invoice events: its position survives restarts. */
export const INVOICE_MESSAGES_DURABLE_NAME = "billing-invoice-messages";

/**
 * Sends an invoice's customer its messages when the invoice opens (`billing.invoice.open`: it
 * has its payment page) and when it is paid (`billing.invoice.paid`). The messages are recorded
 * (once per invoice, step and channel) before the event is acknowledged, then sent; a send that
 * fails is left to the retry worker, so a slow or failing sender never holds the consumer back.
 * An event delivered again finds its messages recorded and sends nothing twice.
 */
export function invoiceMessagesHandler(deps: InvoiceMessagesDeps): MessageHandler {
  return eventMessageHandler(deps.logger, async (event) => {
    const step = stepOfEvent(event.type);
    if (!step) return;
    const pending = await recordInvoiceMessages(deps, event.resourceId, step);
    for (const message of pending) {
      try {
        await deliverBillingMessage(deps, message);
      } catch (error) {
        // Recorded, so the retry worker sends it; the event is done.
        deps.logger.warn({ err: error, messageId: message._id }, "billing message left for the retry worker");
      }
    }
  });
}

export function startInvoiceMessagesConsumer(options: { bus: EventBus; deps: InvoiceMessagesDeps }): Promise<Consumption> {
  return options.bus.consume(
    INVOICE_MESSAGES_DURABLE_NAME,
    traceMessages("billing", INVOICE_MESSAGES_DURABLE_NAME, invoiceMessagesHandler(options.deps)),
  );
}

/** Tries pending messages again when due, every `intervalMs`, until stopped. */
export function startInvoiceMessagesWorker(options: { deps: InvoiceMessagesDeps; intervalMs: number }): { stop(): Promise<void> } {
  const controller = new AbortController();
  const done = (async () => {
    while (!controller.signal.aborted) {
      try {
        await deliverDueMessages(options.deps);
      } catch (error) {
        options.deps.logger.warn({ err: error }, "billing messages round failed");
      }
      await pause(options.intervalMs, controller.signal).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
