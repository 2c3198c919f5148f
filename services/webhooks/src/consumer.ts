import { batchInTransaction, eventMessageHandler, type BatchHandler, type Consumption, type EventBus, type MessageHandler } from "@bayad/events";
import type { Logger } from "@bayad/kit";
import type { Session } from "@bayad/store";
import { DEFAULT_BATCH_SIZE } from "./config.js";
import { recordEvent } from "./events/webhook-events.js";
import type { WebhooksDeps } from "./webhooks-deps.js";

/** The webhooks service's durable consumer on the bus: its position survives restarts. */
export const WEBHOOKS_DURABLE_NAME = "webhooks";

export interface WebhooksConsumerOptions {
  bus: EventBus;
  deps: WebhooksDeps;
  logger: Logger;
  /** The most events recorded in one store transaction (WebhooksConfig.batchSize). Default DEFAULT_BATCH_SIZE. */
  batchSize?: number;
}

/** Where one message's handler writes: the batch's transaction, and what it tells the batch. */
export interface BatchContext {
  session: Session;
  /** Called for each event whose first attempts were scheduled. */
  scheduled: () => void;
}

/**
 * Handles one bus message in the batch's transaction. It resolves once the public event and its
 * first attempts are written, or when the event is not one consumers are told of, or is stored
 * already; a store failure throws, so the bus delivers the batch again. A message that can never
 * be taken (undecodable, malformed) is logged and skipped: it would fail forever otherwise.
 */
export function webhooksMessageHandler(deps: WebhooksDeps, logger: Logger, batch: BatchContext): MessageHandler {
  return eventMessageHandler(logger, async (event, message) => {
    try {
      const recorded = await recordEvent(deps, event, batch.session);
      if (recorded.outcome === "malformed") {
        logger.error({ subject: message.subject, eventId: event.eventId, problem: recorded.problem }, "malformed event skipped");
      } else if (recorded.outcome === "recorded") {
        logger.debug({ eventId: event.eventId, eventType: recorded.type, attempts: recorded.attempts }, "event recorded for webhooks");
        if (recorded.attempts > 0) batch.scheduled();
      }
    } catch (error) {
      logger.warn({ err: error, eventId: event.eventId, redelivered: message.redelivered }, "event not recorded; it will be redelivered");
      throw error;
    }
  });
}

/**
 * Records a batch of bus messages in one store transaction (batchInTransaction): one commit for
 * the batch instead of one per event. Each message goes through webhooksMessageHandler, so the
 * rules are those of one event: an event stored already (a batch delivered again) is skipped, as
 * is one that is malformed or not public, without failing the batch. The dispatcher is told once,
 * after the commit, when any attempt was scheduled: told before, it could look before the
 * attempts are there. A store failure throws, nothing of the batch is kept, and the bus delivers
 * all of it again.
 */
export function webhooksBatchHandler(deps: WebhooksDeps, logger: Logger): BatchHandler {
  return async (messages) => {
    let scheduled = false;
    await batchInTransaction(deps.store, { component: "webhooks", durableName: WEBHOOKS_DURABLE_NAME }, (session) => {
      // Afresh for each run of the transaction: only the run that commits counts.
      scheduled = false;
      return webhooksMessageHandler(deps, logger, { session, scheduled: () => void (scheduled = true) });
    })(messages);
    if (scheduled) deps.scheduled();
  };
}

/** Consumes every event from the bus into `webhook_events` and the first attempts of its deliveries, a batch per transaction. */
export function startWebhooksConsumer(options: WebhooksConsumerOptions): Promise<Consumption> {
  const handler = webhooksBatchHandler(options.deps, options.logger);
  return options.bus.consumeBatches(WEBHOOKS_DURABLE_NAME, handler, { maxMessages: options.batchSize ?? DEFAULT_BATCH_SIZE });
}
