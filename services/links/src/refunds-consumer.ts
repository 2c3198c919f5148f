import { RefundStatus, type Event } from "@bayad/proto";
import { eventMessageHandler, traceMessages, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import type { Logger } from "@bayad/kit";
import { recordLinkRefund, type LinkRefund } from "./payment-links/link-refunds.js";
import type { PaymentLinksDeps } from "./payment-links/payment-links.js";

/** This service's durable consumer of the payments service's refund events: its position survives restarts. */
export const LINK_REFUNDS_DURABLE_NAME = "links-refunds";

/** The succeeded refund of a payment link an event announces; null for any other event. */
export function linkRefundOf(event: Event): LinkRefund | null {
  if (event.snapshot.case !== "refund") return null;
  const refund = event.snapshot.value;
  if (refund.status !== RefundStatus.SUCCEEDED || !refund.paymentId.startsWith("link_") || !refund.amount) return null;
  return {
    projectId: event.projectId,
    environment: event.environment,
    linkId: refund.paymentId,
    refundId: refund.refundId,
    amountMinor: Number(refund.amount.amountMinor),
  };
}

/** Records each succeeded refund of a link on the link; acknowledges once written (an undecodable message is logged and acknowledged). */
export function linkRefundsMessageHandler(deps: { paymentLinks: PaymentLinksDeps; logger: Logger }): MessageHandler {
  return eventMessageHandler(deps.logger, async (event) => {
    const refund = linkRefundOf(event);
    if (refund && (await recordLinkRefund(deps.paymentLinks, refund))) {
      deps.logger.debug({ eventId: event.eventId, linkId: refund.linkId, refundId: refund.refundId }, "link refund recorded");
    }
  });
}

export function startLinkRefundsConsumer(options: { bus: EventBus; paymentLinks: PaymentLinksDeps; logger: Logger }): Promise<Consumption> {
  return options.bus.consume(LINK_REFUNDS_DURABLE_NAME, traceMessages("links", LINK_REFUNDS_DURABLE_NAME, linkRefundsMessageHandler(options)));
}
