import { eventMessageHandler, traceMessages, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import type { Logger } from "@bayad/kit";
import { recordEvent } from "./events/webhook-events.js";
import type { WebhooksDeps } from "./webhooks-deps.js";

/** The webhooks service's durable consumer on the bus: its position survives restarts. */
export const WEBHOOKS_DURABLE_NAME = "webhooks";

export interface WebhooksConsumerOptions {
  bus: EventBus;
  deps: WebhooksDeps;
  logger: Logger;
}

/**
 * Handles one bus message. It resolves (acknowledges) once the public event and its first
 * attempts are written, or when the event is not one consumers are told of, or is stored
 * already; a store failure throws, so the bus delivers it again. A message that can never be
 * taken (undecodable, malformed) is logged and acknowledged: it would fail forever otherwise.
 */
export function webhooksMessageHandler(deps: WebhooksDeps, logger: Logger): MessageHandler {
  return eventMessageHandler(logger, async (event, message) => {
    try {
      const recorded = await recordEvent(deps, event);
      if (recorded.outcome === "malformed") {
        logger.error({ subject: message.subject, eventId: event.eventId, problem: recorded.problem }, "malformed event skipped");
      } else if (recorded.outcome === "recorded") {
        logger.debug({ eventId: event.eventId, eventType: recorded.type, attempts: recorded.attempts }, "event recorded for webhooks");
        if (recorded.attempts > 0) deps.scheduled();
      }
    } catch (error) {
      logger.warn({ err: error, eventId: event.eventId, redelivered: message.redelivered }, "event not recorded; it will be redelivered");
      throw error;
    }
  });
}

/** Consumes every event from the bus into `webhook_events` and the first attempts of its deliveries. */
export function startWebhooksConsumer(options: WebhooksConsumerOptions): Promise<Consumption> {
  // Each event's recording in a span under the trace of the change it announces.
  return options.bus.consume(WEBHOOKS_DURABLE_NAME, traceMessages("webhooks", WEBHOOKS_DURABLE_NAME, webhooksMessageHandler(options.deps, options.logger)));
}
