import { asComponentWork, extractTraceContext, inSpan, SpanKind, tracerOf, tracingEnabled } from "@bayad/kit";
import type { MessageHandler } from "./bus.js";

/**
 * `handler` with each message handled in a consumer span of `component`'s traces, a child of the
 * trace context the message carries (the transaction that wrote its event; see the outbox), so
 * one trace runs from the request through the services into the consumers. With traces off (when
 * the consumer starts), `handler` itself.
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
