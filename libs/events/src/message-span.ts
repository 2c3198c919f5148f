import { asComponentWork, extractTraceContext, inSpan, SpanKind, tracerOf, tracingEnabled } from "@bayad/kit";
import type { MessageHandler } from "./bus.js";

/**
 * `handler` with each message handled in a consumer span of `component`'s traces, a child of the
 * trace context the message carries (the transaction that wrote its event; see the outbox), so
 * one trace runs from the request through the services into the consumers. With traces off (when
 * the consumer starts), `handler` itself.
 *
 * A batch consumer applies it to each message's part of the batch's work (batchInTransaction
 * handles each message under its span, inside the batch's transaction) rather than opening one
 * span for the batch with links to the messages: each event's trace then still runs into its
 * projection, as a trace per request promises, while a batch span would sit in a trace of its
 * own that a request's trace only reaches by a link. The batch's commit is in no message's span.
 */
export function traceMessages(component: string, durableName: string, handler: MessageHandler): MessageHandler {
  if (!tracingEnabled()) return handler;
  const tracer = tracerOf(component);
  return (message) =>
    inSpan(
      tracer,
      `process ${message.subject}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          "messaging.operation.type": "process",
          "messaging.destination.name": message.subject,
          "messaging.message.id": message.eventId,
          "messaging.consumer.group.name": durableName,
          "bayad.redelivered": message.redelivered,
        },
      },
      () => handler(message),
      { parent: asComponentWork(extractTraceContext(message.headers), component) },
    );
}
