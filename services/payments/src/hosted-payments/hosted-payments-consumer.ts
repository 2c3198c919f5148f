import { timestampDate } from "@bufbuild/protobuf/wkt";
import { InvoiceStatus, PaymentLinkStatus, type Event, type ProviderPayment } from "@bayad/proto";
import { eventMessageHandler, traceMessages, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import { isEnvironment, type Logger } from "@bayad/kit";
import type { HostedPaymentRecord, HostedPaymentsRepository } from "./hosted-payments-repository.js";

/** This service's durable consumer of the links and billing services' events: its position survives restarts. */
export const HOSTED_PAYMENTS_DURABLE_NAME = "payments-refundable";

/** The paid link or invoice an event announces, as refunds need it; null for any other event. */
export function hostedPaymentOf(event: Event): HostedPaymentRecord | null {
  const snapshot = event.snapshot;
  let kind: HostedPaymentRecord["kind"];
  let amountMinor: bigint | undefined;
  let payment: ProviderPayment | undefined;
  if (snapshot.case === "paymentLink" && snapshot.value.status === PaymentLinkStatus.PAID) {
    kind = "payment_link";
    amountMinor = snapshot.value.amount?.amountMinor;
    payment = snapshot.value.providerPayment;
  } else if (snapshot.case === "invoice" && snapshot.value.status === InvoiceStatus.PAID) {
    kind = "invoice";
    amountMinor = snapshot.value.amount?.amountMinor;
    payment = snapshot.value.providerPayment;
  } else {
    return null;
  }
  // A paid link or invoice announced before they carried their payment has none: its payment is
  // unknown, so it is not refundable here (a refund of it is RESOURCE_NOT_FOUND, as before).
  if (!payment || amountMinor === undefined || !isEnvironment(event.environment)) return null;
  const paidAt = payment.paidAt ? timestampDate(payment.paidAt) : undefined;
  return {
    _id: event.resourceId,
    projectId: event.projectId,
    environment: event.environment,
    kind,
    status: "paid",
    amountMinor: Number(amountMinor),
    refundableMinor: Number(amountMinor),
    ...(payment.providerAccountId !== "" ? { providerAccountId: payment.providerAccountId } : {}),
    ...(payment.providerPaymentId !== "" ? { providerPaymentId: payment.providerPaymentId } : {}),
    ...(payment.method !== "" ? { paymentMethodUsed: payment.method } : {}),
    ...(payment.paymentMethod !== "" ? { paymentMethod: payment.paymentMethod } : {}),
    ...(paidAt ? { paidAt } : {}),
    aggregateVersion: 1,
    createdAt: paidAt ?? new Date(),
  };
}

/**
 * Records every paid link and invoice announced on the bus, so refunds can draw on them (the
 * links and billing collections are their services' own). Acknowledges only once written; an
 * undecodable message is logged and acknowledged, since it would fail forever.
 */
export function hostedPaymentsMessageHandler(deps: { repository: HostedPaymentsRepository; logger: Logger }): MessageHandler {
  return eventMessageHandler(deps.logger, async (event) => {
    const paid = hostedPaymentOf(event);
    if (!paid) return;
    if (await deps.repository.recordPaid(paid)) {
      deps.logger.debug({ eventId: event.eventId, paymentId: paid._id, kind: paid.kind }, "paid hosted payment recorded: refundable");
    }
  });
}

export function startHostedPaymentsConsumer(options: { bus: EventBus; repository: HostedPaymentsRepository; logger: Logger }): Promise<Consumption> {
  const handler = hostedPaymentsMessageHandler(options);
  return options.bus.consume(HOSTED_PAYMENTS_DURABLE_NAME, traceMessages("payments", HOSTED_PAYMENTS_DURABLE_NAME, handler));
}
